//! The Rust API (the crate root re-exports it): the async functions, their options, the clients and
//! the typed outcomes. One implementation behind both APIs: the npm package's JS functions are
//! bindings over the same shell these functions call.

mod adapters;
pub(crate) mod callbacks;
mod calls;
pub(crate) mod client;
mod clients;
mod convert;
mod error;
mod helpers;
#[cfg(feature = "journal")]
mod journal;
pub(crate) mod options;
mod outcome;
mod status;
#[cfg(feature = "journal")]
pub(crate) mod store;

pub use callbacks::{
    form_handler, handler, input_function, on_status, roots_handler, sampling_handler, url_handler, Answer, AskContext,
    FormRequest, HandlerFn, Handlers, InputFn, IntoAnswer, Reply, SamplingMessage, SamplingRequest, StatusFn,
    UrlRequest,
};
pub use calls::{await_task, call_and_await, call_tool, cancel_task, get_task, update_task, TaskRef};
pub use clients::{ClientInfo, ClientOptions, DirectClient, HttpClient, HttpOptions, JsClient, PortClient};
pub use error::{Cause, Error, TaskError};
pub use helpers::{capabilities, live_counts, server_supports, LiveCounts};
#[cfg(feature = "journal")]
pub use journal::{pending_tasks, resume_tasks, OnOutcome, PendingTask, Resumed};
pub use outcome::{CallOutcome, Content, InputRequired, ToolResult, WaitOutcome};
pub use status::{InputRequest, TaskStatus};

pub use client::{Client, RequestOptions};
pub use options::{AwaitOptions, CallOptions, Input, StepOptions, NO_DEADLINE};
#[cfg(feature = "journal")]
pub use store::JournalStore;
