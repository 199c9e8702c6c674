// The task journal's declarations (cargo feature `journal`: the `mcp-tasks-wasm/journal` entry),
// emitted into the generated .d.ts after types.d.ts; its two interfaces merge the `journal` option into
// the options of callTool, awaitTask and callAndAwait.

/** One journaled task, as a {@link Journal} stores it (key: `JSON.stringify([server, taskId])`). */
export interface JournalEntry {
  /** The client's `id`. */
  server: string;
  taskId: string;
  /** The tool that created the task, when the journal saw it created; else null. */
  tool: string | null;
  /** The generation the client spoke when the task was journaled ("2026-07-28", "2025-11-25"), and
   * its session's id (HTTP's `Mcp-Session-Id`, 2025-11-25 only); null when the client did not say.
   * Kept from the first client that knew them: a resumed wait whose client has no session open yet
   * leaves them as they are (see docs/generations.md, "Journal"). */
  generation: Generation | null;
  sessionId: string | null;
  /** The task's `createdAt` and `ttlMs` as last seen (null when not known). */
  createdAt: string | null;
  ttlMs: number | null;
  /** The last non-terminal status seen (without a terminal payload), or null. */
  status: Omit<TaskStatus, "result" | "error"> | null;
  /** The input keys answered: `hash` is `"sha256:<hex>"` of the answer's JSON (`"fnv1a:<hex>"` where
   * Web Crypto is missing); `answer` is kept only until its `tasks/update` is acknowledged. */
  answered: Array<{ key: string; hash: string; answer?: unknown }>;
  /** `Date.now()` when first journaled (the TTL's origin when `createdAt` is unknown). */
  journaledAt: number;
}

/** Where the journal keeps its entries: any object with these four async functions. */
export interface Journal {
  get(key: string): Promise<JournalEntry | undefined>;
  put(key: string, entry: JournalEntry): Promise<void>;
  delete(key: string): Promise<void>;
  list(): Promise<JournalEntry[]>;
}

/** The `journal` option of `callTool`, `callAndAwait` and `awaitTask`. */
export interface JournalOptions {
  /** Record the task (and the input answered) so the wait can be resumed after a reload, a closed tab
   * or a service-worker restart; the entry is removed at a terminal outcome. A failing store ends the
   * call with `{tag: "error", error: {kind: "journal", cause: {type: "journal_failed"}}}`. `true`: the
   * default store, an `indexedDbJournal()` (where IndexedDB exists; elsewhere a `TypeError`). Absent,
   * `undefined` or `null`: not journaled (in `callAndAwait`, the await options' journal, else the call
   * options'). The client needs an `id` (`httpClient` and `stdioClient` set it). */
  journal?: Journal | true | null | undefined;
}

export interface CallToolOptions extends JournalOptions {}
export interface AwaitTaskOptions extends JournalOptions {}

/** The tasks `journal` holds that can be resumed (of `options.server` only, when given); expired ones
 * are dropped from the store. */
export function pendingTasks(journal: Journal | true, options?: { server?: string | undefined }): Promise<JournalEntry[]>;

/** Awaits every pending task of `client`'s server (`client.id`) in `journal`, each under its Web Lock;
 * `onOutcome` reports each outcome as it arrives; the other options are `awaitTask`'s. */
export function resumeTasks(client: TasksClient, journal: Journal | true, options?: Omit<AwaitTaskOptions, "journal" | "answered"> & {
  onOutcome?: ((outcome: AwaitTaskOutcome, entry: JournalEntry) => void) | undefined;
}): Promise<Array<{ taskId: string; tool: string | null; outcome: AwaitTaskOutcome }>>;
