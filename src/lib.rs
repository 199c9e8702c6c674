// The crate's documentation (docs.rs builds it for wasm32, where the API is): src/crate-doc.md. On
// other targets only the sans-IO engine builds, and the docs say so.
#![cfg_attr(target_arch = "wasm32", doc = include_str!("crate-doc.md"))]
#![cfg_attr(
    not(target_arch = "wasm32"),
    doc = "mcp-tasks-wasm: its API exists on `wasm32-unknown-unknown` only (other targets build the sans-IO engine for its tests)."
)]
#![deny(missing_docs)]
#![warn(unreachable_pub)]
// Natively only the sans-IO engine builds, for the crate's tests and the fuzzer: what only the wasm
// shell uses of it is unused there.
#![cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]

/// The README's Rust examples, compiled with the doc examples (`cargo test --doc`).
#[cfg(all(doctest, target_arch = "wasm32"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

mod engine;
mod json;
mod proto;
mod text;

#[cfg(target_arch = "wasm32")]
mod api;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
mod bind;
#[cfg(target_arch = "wasm32")]
mod shell;

/// The fuzz world (cargo feature `fuzzing`, for `tests/fuzz`; the crate's own tests use it too).
#[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
#[doc(hidden)]
pub mod fuzzing;
#[cfg(test)]
mod tests;

#[cfg(target_arch = "wasm32")]
pub use api::*;
pub use engine::ErrorKind;
pub use proto::task::TaskState;
pub use proto::TASKS_EXTENSION;

// The layout (for the reader of the source): `json` is the read/build interface every part works
// through (JS values in the browser, `serde_json::Value` natively); `proto` the wire protocol;
// `engine` pure state machines (no clock, no I/O) tested natively on simulated time (`tests`, in the
// crate, so that all of this stays `pub(crate)`); `shell` the async Rust shell driving them against
// clients on wasm-bindgen-futures and one gloo timer, entered through its `mod.rs` only; `api` the
// Rust face and `bind` the JS face over it; `text` message text without `core::fmt`.

/// The module's allocator with the default feature `talc`: talc (maintained, made for wasm; smaller and
/// faster than std's dlmalloc here — see CONTRIBUTING's Building section).
#[cfg(all(target_arch = "wasm32", feature = "talc", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
