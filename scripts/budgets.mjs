// The size budgets, KiB gzip of the working app (scripts/size.mjs measures and checks them; the bench's
// table shows them): one place, so that the check, the bench and the docs cannot disagree.

/** The budget of the working app on the core entry (`mcp-tasks-wasm`). */
export const BUDGET_KB = 60;
/** What `size.mjs --check` enforces: the budget (met). */
export const CEILING_KB = BUDGET_KB;
/** The budget of the same working app on the journal entry (`mcp-tasks-wasm/journal`). */
export const JOURNAL_BUDGET_KB = 82;
/** What `size.mjs --check` enforces for the journal entry: its budget (met). */
export const JOURNAL_CEILING_KB = JOURNAL_BUDGET_KB;
