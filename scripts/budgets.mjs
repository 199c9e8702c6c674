// The size budgets, KiB gzip of the working app (scripts/size.mjs measures and checks them; the bench's
// table shows them): one place, so that the check, the bench and the docs cannot disagree.

/** The budget of the working app on the core entry (`mcp-tasks-wasm`), both MCP generations in it. */
export const BUDGET_KB = 64;
/** What `size.mjs --check` enforces: the budget (not met yet: 69.5 KB on the issue-40 branch). */
export const CEILING_KB = BUDGET_KB;
/** The budget of the same working app on the journal entry (`mcp-tasks-wasm/journal`). */
export const JOURNAL_BUDGET_KB = 86;
/** What `size.mjs --check` enforces for the journal entry: its budget (not met yet: 87.8 KB). */
export const JOURNAL_CEILING_KB = JOURNAL_BUDGET_KB;
