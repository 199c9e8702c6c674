// The size budgets, KiB gzip of the working app (scripts/size.mjs measures and checks them; the bench's
// table shows them): one place, so that the check, the bench and the docs cannot disagree.
//
// A budget and a ceiling. The budget is the target the issues set; the ceiling is what
// `size.mjs --check` enforces: the budget once it is met, and until then the size the build reached,
// as a ratchet (any growth fails the check; raising it is a decision written here, with its reason).
// Both generations in one module (MCP 2025-11-25 support, issue 40) cost 10.4 KB gzip against the
// 4.9 KB the 64 KB budget leaves; every build flag, wasm-opt pass and inlining setting was measured
// without gain, the JS adapters were reviewed for duplicates (−0.2 KB), and the budget is reported
// "not met" (the closing note of the session that set this says what meeting it would cost) — as
// the 58 KB budget was before it was retired.

/** The budget of the working app on the core entry (`mcp-tasks-wasm`), both MCP generations in it. */
export const BUDGET_KB = 64;
/** What `size.mjs --check` enforces: not met yet — the size reached (71,876 B = 70.2 KB, with both
 * generations and issue 41's work: the task beside an error, listenFallback, the check of the .wasm
 * each entry is given), as a ratchet. */
export const CEILING_KB = 70.3;
/** The budget of the same working app on the journal entry (`mcp-tasks-wasm/journal`). */
export const JOURNAL_BUDGET_KB = 86;
/** What `size.mjs --check` enforces for the journal entry: not met yet — the size reached (90,694 B =
 * 88.6 KB), as a ratchet. */
export const JOURNAL_CEILING_KB = 88.7;
