//! The task journal's seam in the exports. With the cargo feature `journal` (the package's
//! `mcp-tasks-wasm/journal` entry) these are the journal's calls; without it a `journal` option is a
//! `TypeError` (`read::journal`), so they can never be reached: [`Journal`] has no value at all.

#[cfg(feature = "journal")]
pub use crate::shell::journal::{await_task, call_and_await, call_tool, Journal};

#[cfg(not(feature = "journal"))]
pub use none::{await_task, call_and_await, call_tool, Journal};

#[cfg(not(feature = "journal"))]
mod none {
    use crate::engine::wait::Seed;
    use crate::shell::client::Client;
    use crate::shell::options::{AwaitOptions, CallOptions};
    use crate::shell::settle::Settling;
    use std::rc::Rc;
    use wasm_bindgen::JsValue;

    /// No journal: a module built without the journal has none to offer.
    pub enum Journal {}

    /// Never called (there is no [`Journal`]).
    pub fn call_tool(_: Rc<dyn Client>, j: Journal, _: &str, _: Option<JsValue>, _: CallOptions) -> Settling {
        match j {}
    }

    /// Never called (there is no [`Journal`]).
    pub fn await_task(_: Rc<dyn Client>, j: Journal, _: Seed<JsValue>, _: AwaitOptions) -> Result<Settling, String> {
        match j {}
    }

    /// Never called (there is no [`Journal`]).
    pub fn call_and_await(
        _: Rc<dyn Client>,
        j: Journal,
        _: &str,
        _: Option<JsValue>,
        _: CallOptions,
        _: AwaitOptions,
    ) -> Result<Settling, String> {
        match j {}
    }
}
