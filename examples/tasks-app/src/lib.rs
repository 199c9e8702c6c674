//! # tasks-app
//!
//! An example of mcp-tasks-wasm's Rust API in a plain wasm-bindgen + web-sys page (no framework):
//! it starts a tool on an MCP server as a task, shows the task's status as it changes, answers a
//! form the task asks for through a Rust input handler, can cancel the task, and shows the final
//! outcome in an element with `data-outcome="ok|cancelled|error"`.
//!
//! - `app.rs`: the client, the runs (`call_and_await` with `on_status` and the handler), Cancel
//!   (`cancel_task`).
//! - `form.rs`: the form handler (a form built from the request's schema; resolves on submit).
//! - `outcome.rs`: the outcome in words.
//! - `ui.rs`: the page's elements and what is shown in them.

mod app;
mod form;
mod outcome;
mod ui;

use wasm_bindgen::prelude::*;

/// Runs when the module is instantiated: starts the app, or shows in the page why it cannot.
#[wasm_bindgen(start)]
pub fn start() {
    if let Err(e) = app::App::boot() {
        ui::boot_failed(&e);
    }
}
