// The task journal: long tasks survive page reloads, closed tabs and extension service-worker restarts.
//
// With a `journal` option, `callTool`, `callAndAwait` and `awaitTask` record each task they create or
// await — before the outcome can be lost — and remove it at a terminal outcome; `pendingTasks` lists
// what is left and `resumeTasks` awaits it again. The rules:
// - a task is journaled before the engine sees the answer that created it; an input answer is
//   journaled (key, SHA-256 of its JSON, and the answer itself) before the `tasks/update` that carries
//   it goes out, and the answer is dropped once that update is acknowledged (the hash stays);
// - a resumed wait never asks a key answered before: an acknowledged key counts as answered; an
//   unacknowledged answer is sent once again, without calling a handler (`awaitTask`'s `answered`);
// - one waiter per task across the tabs and workers of an origin: the wait holds a Web Lock named
//   after server and task; another wait of the same task waits for the lock and takes the holder's
//   terminal outcome from a BroadcastChannel (or, if the holder died, goes on itself);
// - a store that fails ends the call with an error outcome (`kind: "journal"`), never a silent loss.
import { awaitTask as engineAwaitTask, callAndAwait as engineCallAndAwait, callTool as engineCallTool } from "./mcp_tasks_wasm.js";
import { attempt, isObjectLike, later, nothing, readKey } from "./values.js";

const PREFIX = "mcp-tasks-wasm:";

/** The journal key of a task. */
const keyOf = (server, taskId) => JSON.stringify([server, taskId]);

/** A store in this realm's memory (lost with it): for tests, and for Node programs that persist elsewhere. */
export function memoryJournal() {
  const m = new Map();
  return {
    get: async (key) => m.get(key),
    put: async (key, entry) => void m.set(key, entry),
    delete: async (key) => void m.delete(key),
    list: async () => [...m.values()],
  };
}

/** A store in IndexedDB (browsers and workers): database `name` (default "mcp-tasks-wasm"), object
 * store "tasks". Entries must be structured-cloneable (statuses and answers as they arrived are). */
export function indexedDbJournal(name = "mcp-tasks-wasm") {
  if (typeof name !== "string" || name === "") throw new TypeError("indexedDbJournal: name must be a non-empty string");
  let db;
  const open = () => (db ??= new Promise((resolve, reject) => {
    const req = globalThis.indexedDB.open(name, 1);
    req.onupgradeneeded = () => req.result.createObjectStore("tasks");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  }).catch((e) => {
    db = undefined;
    throw e;
  }));
  const run = async (mode, f) => {
    const tx = (await open()).transaction("tasks", mode);
    const req = f(tx.objectStore("tasks"));
    return new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve(req.result);
      tx.onerror = tx.onabort = () => reject(tx.error ?? req.error);
    });
  };
  return {
    get: (key) => run("readonly", (s) => s.get(key)),
    put: (key, entry) => run("readwrite", (s) => s.put(entry, key)).then(nothing),
    delete: (key) => run("readwrite", (s) => s.delete(key)).then(nothing),
    list: () => run("readonly", (s) => s.getAll()),
  };
}

/** A store in a WebExtension storage area (`chrome.storage.local` or `.session`, `browser.storage.*`):
 * one item per task, named `"mcp-tasks-wasm:" + key`. */
export function extensionStorageJournal(area) {
  if (!area || typeof area.get !== "function" || typeof area.set !== "function" || typeof area.remove !== "function") {
    throw new TypeError("extensionStorageJournal: area must be a storage area (chrome.storage.local, chrome.storage.session, …)");
  }
  return {
    get: async (key) => (await area.get(PREFIX + key))?.[PREFIX + key],
    put: (key, entry) => Promise.resolve(area.set({ [PREFIX + key]: entry })).then(nothing),
    delete: (key) => Promise.resolve(area.remove(PREFIX + key)).then(nothing),
    list: async () => Object.entries((await area.get(null)) ?? {}).filter(([k]) => k.startsWith(PREFIX)).map(([, v]) => v),
  };
}

const isStore = (j) => isObjectLike(j) && ["get", "put", "delete", "list"].every((f) => typeof j[f] === "function");

let defaultStore;
/** The store a `journal` value names: the store itself, or for `true` the default — an
 * `indexedDbJournal()` where IndexedDB exists; `undefined` when there is none. */
function storeOf(journal) {
  if (journal === true) {
    if (typeof globalThis.indexedDB === "undefined") return undefined;
    return (defaultStore ??= indexedDbJournal());
  }
  return isStore(journal) ? journal : undefined;
}
const badJournal = (fn) => new TypeError(`${fn}: the journal must have get, put, delete and list (or be true: IndexedDB, where it exists)`);

/** The server a client belongs to (`client.id`), or a TypeError. */
function serverOf(client, fn) {
  const id = client?.id;
  if (typeof id !== "string" || id === "") {
    throw new TypeError(`${fn}: a journaled client needs an id (httpClient and stdioClient set it; set client.id on others)`);
  }
  return id;
}

/** When an entry's task is past its `createdAt + ttlMs` (the server's times; else when it was journaled). */
function expired(entry, now) {
  if (typeof entry?.ttlMs !== "number") return false;
  const created = Date.parse(entry.createdAt);
  return (Number.isFinite(created) ? created : entry.journaledAt) + entry.ttlMs < now;
}

/** The tasks a journal holds that can be resumed (of `server` only, when given); expired ones are
 * dropped from the store. */
export async function pendingTasks(journalOrTrue, options) {
  const journal = storeOf(journalOrTrue);
  if (!journal) throw badJournal("pendingTasks");
  const server = options?.server;
  const now = Date.now();
  const out = [];
  for (const entry of await journal.list()) {
    if (entry === null || typeof entry !== "object" || typeof entry.taskId !== "string") continue;
    if (expired(entry, now)) {
      await journal.delete(keyOf(entry.server, entry.taskId));
    } else if (server === undefined || entry.server === server) {
      out.push(entry);
    }
  }
  return out;
}

/** Awaits every pending task of `client`'s server in `journal`; resolves with `[{taskId, tool,
 * outcome}]`, each also reported through `options.onOutcome(outcome, entry)` as it arrives. The other
 * options are `awaitTask`'s. */
export async function resumeTasks(client, journal, options) {
  const server = serverOf(client, "resumeTasks");
  const { onOutcome, ...rest } = options ?? {};
  if (onOutcome !== undefined && typeof onOutcome !== "function") throw new TypeError("resumeTasks: options.onOutcome must be a function");
  const entries = await pendingTasks(journal, { server });
  return Promise.all(entries.map(async (entry) => {
    const outcome = await awaitTask(client, entry.taskId, { ...rest, journal });
    onOutcome?.(outcome, entry);
    return { taskId: entry.taskId, tool: entry.tool, outcome };
  }));
}

/** An outcome after which the task can never be resumed. */
function isTerminal(out) {
  if (out.tag === "ok" || out.tag === "cancelled") return true;
  const type = out.tag === "error" ? out.error?.cause?.type : undefined;
  return type === "task_failed" || type === "expired" || (type === "rpc_error" && out.error.code === -32602);
}

/** `"sha256:<hex>"` of the JSON of `value` (or of its `String` where it has no JSON); where Web Crypto
 * is missing (an insecure page), `"fnv1a:<hex>"`, a 32-bit FNV-1a of the same text. */
async function hashOf(value) {
  let text;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  const bytes = new TextEncoder().encode(text);
  const subtle = globalThis.crypto?.subtle;
  if (subtle) return "sha256:" + [...new Uint8Array(await subtle.digest("SHA-256", bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
  let h = 0x811c9dc5;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return "fnv1a:" + h.toString(16).padStart(8, "0");
}

/**
 * One journaled call: the entry of its task (`entry`, once known), its writes in order (`chain`), and
 * the first store failure (`failed`, an error outcome), which ends the call (it aborts `stop`);
 * `cleanups`: what to undo when the call ends (listeners on the caller's signal).
 */
function newRecord(journal, server) {
  /** The journal key of the entry. */
  const key = () => keyOf(server, record.entry.taskId);

  /** Runs the write `f` (every recorded write is a `put`: the removal at the end is not recorded)
   * after the writes before it; a failure of the store is recorded (and ends the call). */
  const write = (f) => (record.chain = record.chain.then(() => (record.failed ? undefined : f())).catch(fail));

  /** Records the failure `e` of a put, unless one is recorded already. */
  function fail(e) {
    if (record.failed) return;
    const operation = "put";
    const detail = attempt(() => e?.message ?? String(e), "unreadable error");
    const taskId = record.entry?.taskId ?? null;
    record.failed = {
      tag: "error",
      error: {
        code: -32603,
        message: `journal: ${operation} failed: ${detail}`,
        kind: "journal",
        data: { taskId, operation },
        cause: { type: "journal_failed", operation, error: e, status: record.entry?.status ?? null },
      },
    };
    record.stop.abort(record.failed);
  }

  /** Takes `status` into the entry: as journaled (without a terminal payload), and its times. */
  function see(status) {
    const e = record.entry;
    const { result, error, ...rest } = status;
    e.status = rest;
    if (typeof status.createdAt === "string") e.createdAt = status.createdAt;
    if (status.ttlMs !== undefined) e.ttlMs = typeof status.ttlMs === "number" ? status.ttlMs : null;
  }

  /** Stores the entry (a copy: the store may keep what it is given). */
  const put = () => journal.put(key(), { ...record.entry, answered: record.entry.answered.map((a) => ({ ...a })) });

  const record = {
    server,
    chain: Promise.resolve(),
    stop: new AbortController(),
    cleanups: [],

    /** Loads (or creates) the entry of `taskId` and journals `status`; resolves when it is stored. */
    open(taskId, tool, status) {
      return write(async () => {
        const k = keyOf(server, taskId);
        const stored = await journal.get(k);
        const entry = isObjectLike(stored) && stored.taskId === taskId
          ? { ...stored, answered: Array.isArray(stored.answered) ? stored.answered : [] }
          : { server, taskId, tool: null, createdAt: null, ttlMs: null, status: null, answered: [], journaledAt: Date.now() };
        if (tool !== undefined) entry.tool = tool;
        record.entry = entry;
        if (status) see(status);
        await journal.put(k, { ...entry });
      });
    },

    /** A new status was seen (not awaited by the wait: a later write carries it if this one is lost). */
    status(status) {
      if (!record.entry || !isObjectLike(status)) return;
      if (["completed", "failed", "cancelled"].includes(status.status)) return; // the entry goes at the end
      write(() => {
        see(status);
        return put();
      });
    },

    /** An answer for `key`: journaled (with its hash) before it may be sent. */
    answer(answerKey, response) {
      return write(async () => {
        const hash = await hashOf(response);
        const answered = record.entry.answered.filter((a) => a.key !== answerKey);
        answered.push({ key: answerKey, hash, answer: response });
        record.entry.answered = answered;
        await put();
      });
    },

    /** A `tasks/update` carrying `keys` was acknowledged: their answers are dropped (the hashes stay). */
    acked(keys) {
      if (!record.entry) return;
      write(() => {
        record.entry.answered = record.entry.answered.map((a) => (keys.includes(a.key) ? { key: a.key, hash: a.hash } : a));
        return put();
      });
    },

    /** The call ended with `outcome`: a terminal one removes the entry. */
    async finish(outcome) {
      await record.chain;
      if (record.entry && !record.failed && isTerminal(outcome)) {
        // A failed removal loses nothing: the entry is found terminal (or expired) on the next resume.
        await journal.delete(key()).then(nothing, nothing);
      }
    },
  };
  return record;
}

/** The keys `record` holds answered before, as `awaitTask`'s `answered` option. (Not one of the
 * record's methods: only `awaitTask` needs it, and an app that does not use it does not ship it.) */
const answeredBefore = (record) =>
  record.entry.answered.map((a) => ("answer" in a ? { key: a.key, answer: a.answer } : { key: a.key }));

/** A view of `client` whose requests tell `record` what the journal needs: the task a `tools/call`
 * created (journaled before the engine sees it) and the acknowledged `tasks/update`s. */
function watched(client, record, tool) {
  const view = Object.create(client);
  view.request = (method, params, opts) => {
    const p = client.request(method, params, opts);
    if (method === "tasks/update") {
      return Promise.resolve(p).then((r) => {
        record.acked(Object.keys(params?.inputResponses ?? {}));
        return r;
      });
    }
    if (method === "tools/call" && tool !== undefined) {
      return Promise.resolve(p).then(async (r) => {
        if (r?.resultType === "task" && typeof r.taskId === "string" && !record.entry) {
          await record.open(r.taskId, tool, r);
          record.releaseLock = holdLock(record.server, r.taskId);
        }
        return r;
      });
    }
    return p;
  };
  return view;
}

/** Journals the answer `response` for `key` before the engine may send it (nothing before the task
 * exists: an MRTR round); a store failure rejects with what the store threw (and ends the call). */
async function saveAnswer(record, key, response) {
  if (!record.entry) return;
  await record.answer(key, response);
  if (record.failed) throw record.failed.error.cause.error;
}

/** `handlers` whose answers are journaled before the engine may send them (undefined when
 * `handlers` is no object). */
function journaledHandlers(record, handlers) {
  if (!isObjectLike(handlers)) return undefined;
  const wrapped = {};
  for (const kind of ["form", "url", "sampling", "roots"]) {
    const h = handlers[kind];
    if (typeof h !== "function") continue;
    wrapped[kind] = async (params, ctx) => {
      const out = await h.call(handlers, params, ctx);
      if (out?.tag === "ok" && typeof ctx?.key === "string") await saveAnswer(record, ctx.key, out.response);
      return out;
    };
  }
  return wrapped;
}

/** `a` and `b` as one signal (either aborts it, with its reason). */
function eitherSignal(a, b) {
  if (!a) return b;
  if (typeof AbortSignal.any === "function") return AbortSignal.any([a, b]);
  const c = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) c.abort(s.reason);
    else s.addEventListener("abort", () => c.abort(s.reason), { once: true });
  }
  return c.signal;
}

/** The options the engine gets for a journaled call: input through the journal, onStatus journaling
 * statuses, and the call's signal tied to the record's (a store failure ends the call; it never
 * cancels the task — `cancelOnAbort` is honoured here for the caller's own signal only). */
function engineOptions(record, client, options, fallbackSignal) {
  const { journal, onStatus, signal = fallbackSignal, cancelOnAbort, input, inputHandlers, ...rest } = options;
  const handlers = journaledHandlers(record, inputHandlers ?? client.inputHandlers);
  const out = { ...rest, signal: eitherSignal(signal, record.stop.signal) };
  if (handlers) out.inputHandlers = handlers;
  // An `input` function's answers are journaled too.
  if (input !== undefined) {
    out.input = typeof input !== "function" ? input : async (status, ctx) => {
      const answer = await input(status, ctx);
      if (answer?.tag === "ok" && answer.responses && typeof answer.responses === "object") {
        for (const [key, response] of Object.entries(answer.responses)) await saveAnswer(record, key, response);
      }
      return answer;
    };
  }
  out.onStatus = (s) => {
    record.status(s);
    if (onStatus !== undefined) return onStatus(s);
  };
  if (cancelOnAbort === true && signal) {
    const cancel = () => {
      const taskId = record.entry?.taskId;
      if (taskId === undefined) return;
      const timeoutMs = rest.requestTimeoutMs ?? client.requestTimeoutMs ?? 5000;
      later(() => client.request("tasks/cancel", { taskId }, { timeoutMs }));
    };
    signal.addEventListener("abort", cancel, { once: true });
    record.cleanups.push(() => signal.removeEventListener("abort", cancel));
  }
  return out;
}

/** Runs the engine call `run()` for `record`; a store failure turns into its error outcome. */
async function settle(record, run) {
  let outcome;
  try {
    outcome = await run();
  } catch (e) {
    if (record.failed) return record.failed;
    throw e;
  } finally {
    for (const undo of record.cleanups) attempt(undo);
    await record.chain;
  }
  if (record.failed) return record.failed;
  await record.finish(outcome);
  return outcome;
}

/** The lock name and broadcast channel of a task. */
const lockName = (server, taskId) => PREFIX + keyOf(server, taskId);

/** Takes the task's Web Lock if it is free, holding it until the function returned is called; a
 * no-op without Web Locks. */
function holdLock(server, taskId) {
  const locks = globalThis.navigator?.locks;
  let release = nothing;
  if (typeof locks?.request === "function") {
    const held = new Promise((resolve) => (release = resolve));
    locks.request(lockName(server, taskId), { ifAvailable: true }, (lock) => (lock ? held : undefined)).then(nothing, nothing);
  }
  return () => release();
}

/** Tells the other waiters of the task its terminal outcome. */
function broadcast(server, taskId, outcome) {
  if (typeof BroadcastChannel !== "function" || !isTerminal(outcome)) return;
  const bc = new BroadcastChannel(lockName(server, taskId));
  attempt(() => bc.postMessage(outcome)); // an outcome that cannot be cloned: the others read the task themselves
  bc.close();
}

/**
 * Runs `body(afterOther)` as the one waiter of the task across this origin: under its Web Lock. When
 * another wait holds it, waits for that one's terminal outcome (BroadcastChannel) or for the lock (the
 * holder ended without one, or died), whichever comes first; `afterOther` is then true. Without Web
 * Locks, just runs `body(false)`.
 */
async function asOneWaiter(server, taskId, signal, body) {
  const locks = globalThis.navigator?.locks;
  if (typeof locks?.request !== "function") return body(false);
  const name = lockName(server, taskId);
  const run = async (afterOther) => {
    const outcome = await body(afterOther);
    broadcast(server, taskId, outcome);
    return outcome;
  };
  const first = await locks.request(name, { ifAvailable: true }, async (lock) => (lock ? { outcome: await run(false) } : undefined));
  if (first) return first.outcome;
  const bc = typeof BroadcastChannel === "function" ? new BroadcastChannel(name) : undefined;
  const quit = new AbortController();
  let done = false;
  try {
    const heard = new Promise((resolve) => {
      if (bc) bc.onmessage = (e) => resolve(e.data);
    });
    const aborted = new Promise((_, reject) => {
      if (!signal) return;
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    });
    const turn = locks.request(name, { signal: quit.signal }, async () => (done ? undefined : { outcome: await run(true) }));
    turn.catch(nothing);
    const got = await Promise.race([heard.then((outcome) => ({ outcome })), turn, aborted]);
    return got.outcome;
  } finally {
    done = true;
    quit.abort();
    bc?.close();
  }
}

/** The `journal` option of `options`, `undefined` when absent (or unreadable: the engine says so). */
const journalOf = (options) => readKey(options, "journal");

/** `awaitTask` with the `journal` option (see the module comment); without it, the engine's. */
export function awaitTask(client, statusOrTaskId, options) {
  const journal = journalOf(options);
  if (journal === undefined) return engineAwaitTask(client, statusOrTaskId, options);
  const store = storeOf(journal);
  if (!store) return Promise.reject(badJournal("awaitTask"));
  return (async () => {
    const server = serverOf(client);
    const seed = statusOrTaskId;
    const taskId = typeof seed === "string" ? seed : seed?.taskId;
    if (typeof taskId !== "string" || taskId === "") return engineAwaitTask(client, seed, options); // its TypeError
    const record = newRecord(store, server);
    return asOneWaiter(server, taskId, options.signal, async (afterOther) => {
      // The wait that held the task ended and its entry is gone: the task ended there. Read its outcome
      // from the server, without journaling it again (its handlers never run: the task is over).
      const left = afterOther ? await Promise.resolve().then(() => store.get(keyOf(server, taskId))).catch(() => null) : null;
      if (left === undefined) {
        return engineAwaitTask(client, taskId, { ...options, journal: undefined });
      }
      return settle(record, async () => {
        await record.open(taskId, undefined, typeof seed === "object" ? seed : undefined);
        if (record.failed) return record.failed;
        const opts = { ...engineOptions(record, client, options), answered: answeredBefore(record) };
        return engineAwaitTask(watched(client, record, undefined), seed, opts);
      });
    });
  })();
}

/** `callTool` with the `journal` option: a created task is journaled before the outcome is given. */
export function callTool(client, name, args, options) {
  const journal = journalOf(options);
  if (journal === undefined) return engineCallTool(client, name, args, options);
  const store = storeOf(journal);
  if (!store) return Promise.reject(badJournal("callTool"));
  return (async () => {
    const record = newRecord(store, serverOf(client, "callTool"));
    try {
      return await settle(record, () => engineCallTool(watched(client, record, name), name, args, engineOptions(record, client, options)));
    } finally {
      record.releaseLock?.();
    }
  })();
}

/** `callAndAwait` with the `journal` option (on `awaitOptions`, or on `callOptions`): the task is
 * journaled when created, its answers as they are given, and it is removed at a terminal outcome. */
export function callAndAwait(client, name, args, callOptions, awaitOptions) {
  const journal = journalOf(awaitOptions) ?? journalOf(callOptions);
  if (journal === undefined) return engineCallAndAwait(client, name, args, callOptions, awaitOptions);
  const store = storeOf(journal);
  if (!store) return Promise.reject(badJournal("callAndAwait"));
  return (async () => {
    const server = serverOf(client);
    const record = newRecord(store, server);
    try {
      const outcome = await settle(record, () => engineCallAndAwait(
        watched(client, record, name), name, args,
        engineOptions(record, client, callOptions ?? {}), engineOptions(record, client, awaitOptions ?? {}, callOptions?.signal),
      ));
      if (record.entry) broadcast(server, record.entry.taskId, outcome);
      return outcome;
    } finally {
      record.releaseLock?.();
    }
  })();
}
