//! The async Rust shell around the engine: each operation ([`operations`]: written once, journaled or
//! not) builds its machine ([`start`]) and runs it ([`run`]) against a [`Client`] — JS-supplied request
//! functions — on the module's one gloo timer ([`timer`]), hearing the caller's abort signals
//! ([`signals`]), and ends as an outcome or a rejection ([`end`]). It makes no protocol decision.
//!
//! The two faces — the JS exports (`crate::bind`) and the Rust API (`crate::api`) — enter the shell
//! here and only here: this module re-exports every operation, the vocabulary both faces share, how a
//! call ends, and the conversions between JS and Rust values they need (`scripts/cycles.mjs` checks that
//! neither face names anything else of the shell, nor the engine).

pub(crate) mod callbacks;

pub(crate) mod client;
pub(crate) mod clock;
pub(crate) mod end;
pub(crate) mod inbox;
pub(crate) mod interop;
pub(crate) mod invalid;
#[cfg(feature = "journal")]
pub(crate) mod journal;
pub(crate) mod js_client;
pub(crate) mod live;
pub(crate) mod millis;
pub(crate) mod operations;
pub(crate) mod options;
pub(crate) mod reply;
pub(crate) mod run;
pub(crate) mod signals;
pub(crate) mod slice;
pub(crate) mod start;
#[cfg(feature = "journal")]
pub(crate) mod store;
pub(crate) mod timer;

// Every operation, and the rules both faces read their arguments by.
pub(crate) use operations::{
    await_task, call_and_await, call_tool, cancel_task, get_task, list_tasks, responses, task_ref, update_task,
};
#[cfg(feature = "journal")]
pub(crate) use operations::{pending_tasks, resume_tasks};
pub(crate) use options::tool_args;

// The vocabulary both faces share (the Rust API re-exports it under the crate root).
pub use callbacks::{AskContext, HandlerFn, Handlers, InputFn, Reply, StatusFn};
pub use client::{Client, RequestOptions};
pub use live::LiveCounts;
pub use options::{AwaitOptions, CallOptions, Input, StepOptions, NO_DEADLINE};
#[cfg(feature = "journal")]
pub use store::JournalStore;

// How a call ends: the engine's outcome (its error, cause and kind), another waiter's, or a rejection.
pub(crate) use crate::engine::{Cause as EngineCause, Outcome as EngineOutcome, TaskError as EngineTaskError};
#[cfg(feature = "js")]
pub(crate) use end::{js_call, JsCallFuture};
pub(crate) use end::{CallFuture, Outcome, Rejection};
#[cfg(feature = "js")]
pub(crate) use invalid::InvalidArgument;
#[cfg(feature = "journal")]
pub(crate) use journal::Each;

// Conversions between JS and Rust values, and the JS-backed client.
pub(crate) use interop::from_js::client::{call_and_forget, call_method};
pub(crate) use interop::from_js::{deserialize, is_safe_web_url};
pub(crate) use interop::to_js::{serialize, set_client_id, set_key, transport_options};
#[cfg(feature = "js")]
pub(crate) use interop::Js;
pub use js_client::JsBacked;
pub(crate) use millis::duration_of_millis;

// The module's state: what it holds, and the switch that stops every run once it failed.
pub(crate) use live::live_counts;
#[cfg(feature = "js")]
pub(crate) use run::halt;
#[cfg(feature = "js")]
pub(crate) use timer::ping;
#[cfg(feature = "trap-test")]
pub(crate) use timer::trap_in;

// The protocol's synchronous helpers (the exports `capabilities`, `serverSupports`, `validate…`).
#[cfg(feature = "js")]
pub(crate) use crate::proto::input::{check_create_message_result, check_elicit_result, check_list_roots_result};
pub(crate) use crate::proto::request::{server_supports, with_tasks_extension};
pub(crate) use crate::proto::task::{read_task, Source};

#[cfg(feature = "js")]
/// A call's deadline in milliseconds as JS counts them: `timeout`, else the default deadline (60 s);
/// `Infinity` for [`NO_DEADLINE`] (what the JS face's backstop bounds a call by).
pub(crate) fn deadline_ms(timeout: Option<std::time::Duration>) -> f64 {
    timeout.map_or(crate::engine::settings::DEFAULT_TIMEOUT_MS as f64, millis::millis_f64)
}
