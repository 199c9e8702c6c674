// The journal entry's declarations (`mcp-tasks-wasm/journal`), strict: the `journal` option, the stores,
// pendingTasks and resumeTasks — and the core entry's options have no `journal`.
import { callTool, callAndAwait, memoryJournal, pendingTasks, resumeTasks, httpClient, type Journal, type JournalEntry } from "mcp-tasks-wasm/journal";
import { callTool as coreCallTool } from "mcp-tasks-wasm";

const journal: Journal = memoryJournal();
const client = httpClient("https://example.invalid/mcp");

export async function journaled(): Promise<string[]> {
  const created = await callTool(client, "slow", { ms: 1 }, { journal });
  const waited = await callAndAwait(client, "slow", {}, {}, { journal: true, timeoutMs: 1000 });
  const entries: JournalEntry[] = await pendingTasks(journal, { server: client.id });
  const resumed = await resumeTasks(client, journal, { onOutcome: (outcome, entry) => console.log(outcome.tag, entry.taskId) });
  // @ts-expect-error: the core entry has no journal option.
  await coreCallTool(client, "slow", {}, { journal });
  return [created.tag, waited.tag, ...entries.map((e) => e.taskId), ...resumed.map((r) => r.outcome.tag)];
}
