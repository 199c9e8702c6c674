//! # mcp-tasks-wasm
//!
//! Run long MCP tool calls as **tasks** (MCP 2026-07-28, extension `io.modelcontextprotocol/tasks`)
//! from Rust web apps — Leptos, Dioxus, Yew or plain wasm-bindgen — in pages, workers and browser
//! extensions, on `wasm32-unknown-unknown`. The same engine is the npm package `mcp-tasks-wasm` for
//! JS apps.
//!
//! ```no_run
//! use mcp_tasks_wasm::{call_and_await, handler, Answer, AwaitOptions, CallOptions, Handlers, HttpClient, Outcome};
//! use std::time::Duration;
//! use wasm_bindgen::JsValue;
//!
//! async fn run() -> Result<(), JsValue> {
//!     let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
//!     // A form the task asks for is answered by this Rust async closure.
//!     let form = handler(|_params, _context| async { Answer::accept(&serde_json::json!({"name": "Ada"})) });
//!     let wait = AwaitOptions {
//!         timeout: Some(Duration::from_secs(30)),
//!         input_handlers: Some(Handlers { form: Some(form), ..Handlers::default() }),
//!         on_status: Some(mcp_tasks_wasm::on_status(|s| web_sys::console::log_1(&s.task_id.as_str().into()))),
//!         ..AwaitOptions::default()
//!     };
//!     match call_and_await(&client, "ask", &serde_json::json!({}), CallOptions::default(), wait).await? {
//!         Outcome::Ok(result) => {
//!             let value: serde_json::Value = result.deserialize().map_err(JsValue::from)?;
//!             web_sys::console::log_1(&value.to_string().into());
//!         }
//!         Outcome::Error(error) if error.code == -32001 => { /* still running after 30 s: await it again later */ }
//!         other => web_sys::console::warn_1(&format!("{other:?}").into()),
//!     }
//!     Ok(())
//! }
//! ```
//!
//! ## What there is
//! - The async functions [`call_tool`], [`await_task`], [`call_and_await`], [`get_task`],
//!   [`update_task`], [`cancel_task`], and over a journal [`pending_tasks`] and [`resume_tasks`].
//!   Each resolves with `Ok(`[`Outcome`]`)` for everything a server or a network does, and with
//!   `Err(JsValue)` only where the JS function rejects: the caller's abort (`signal.reason`), what an
//!   application callback threw, or a `TypeError` for wrong arguments (nothing sent).
//! - Their options [`CallOptions`], [`AwaitOptions`], [`StepOptions`]: plain structs with public
//!   fields and `Default`; durations are `Option<Duration>` (`None`: the documented default;
//!   [`NO_DEADLINE`]: no bound at all).
//! - Clients: [`HttpClient`], [`PortClient`], [`DirectClient`], [`JsClient`], or any type that
//!   implements [`Client`].
//! - Input: [`Handlers`] made of [`handler`]s (Rust async closures answering with an [`Answer`]),
//!   [`Input::Return`], or an [`input_function`]; status changes through [`on_status`].
//! - Dropping a call's future ends it on the spot: requests and handlers in flight are aborted, the
//!   listen stream closed, and nothing more is sent (the task keeps running on the server).
//!
//! ## Features
//! - `js` (default): the npm package's JS exports (`callTool`, `awaitTask`, …, `liveCounts`) and their
//!   TypeScript declarations. A Rust app depends on the crate with `default-features = false` and
//!   exports nothing it did not ask for.
//!
//! The library's contract (rules, defaults, errors) is the README's; the Rust API keeps it to the
//! letter, with Rust types.
#![deny(missing_docs)]

#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod json;
#[doc(hidden)]
pub mod proto;
#[doc(hidden)]
pub mod text;

#[cfg(target_arch = "wasm32")]
mod api;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
mod bind;
#[cfg(target_arch = "wasm32")]
#[doc(hidden)]
pub mod shell;
#[cfg(all(target_arch = "wasm32", feature = "js"))]
mod transport;

#[cfg(target_arch = "wasm32")]
pub use api::*;
pub use proto::TASKS_EXTENSION;

// The layout (for the reader of the source): `json` is the read/build interface every part works
// through (JS values in the browser, `serde_json::Value` natively); `proto` the wire protocol;
// `engine` pure state machines (no clock, no I/O) tested natively on simulated time; `shell` the
// async Rust shell driving them against clients on wasm-bindgen-futures and one gloo timer; `api`
// the Rust API over the shell; `bind` the JS exports over the shell; `text` message text without
// `core::fmt`; `transport` the JS transports' TypeScript declarations.

/// The module's allocator: talc (maintained, made for wasm; smaller and faster than std's dlmalloc
/// here — see the README's Building section for the measured figures).
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
