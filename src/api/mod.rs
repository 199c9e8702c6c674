//! The Rust API (the crate root re-exports it): the async functions, their options, the clients and
//! the typed outcomes. One implementation behind both APIs: the npm package's JS functions are
//! bindings over the same shell these functions call.

mod adapters;
mod calls;
mod cancel;
mod clients;
pub mod codes;
mod error;
mod form;
mod handlers;
mod helpers;
#[cfg(feature = "journal")]
mod journal;
mod outcome;
mod result;
mod status;
#[cfg(feature = "journal")]
mod stores;

pub use calls::{
    await_task, call_and_await, call_tool, cancel_task, get_task, list_tasks, update_task, TaskList, TaskRef,
};
pub use cancel::{CancelGuard, CancelHandle};
pub use clients::{kind, ClientInfo, ClientOptions, DirectClient, HttpClient, HttpOptions, JsClient, PortClient};
pub use error::{Cause, Error, TaskError};
pub use form::{Choice, FieldKind, FormField, FormSchema, TextFormat};
pub use handlers::{
    form_handler, handler, input_function, on_status, roots_handler, sampling_handler, url_handler, Answer,
    FormRequest, IntoAnswer, SamplingMessage, SamplingRequest, UrlRequest,
};
pub use helpers::{capabilities, live_counts, server_supports};
#[cfg(feature = "journal")]
pub use journal::{pending_tasks, resume_tasks, OnOutcome, PendingTask, Resumed};
pub use outcome::{CallOutcome, Called, WaitOutcome};
pub use result::{Content, InputRequired, ToolResult};
pub use status::{InputRequest, TaskStatus};

// The vocabulary of the shell, under the crate root's names.
#[cfg(feature = "journal")]
pub use crate::shell::JournalStore;
pub use crate::shell::{
    AskContext, AwaitOptions, CallOptions, Client, HandlerFn, Handlers, Input, InputFn, JsBacked, LiveCounts, Reply,
    RequestOptions, StatusFn, StepOptions, NO_DEADLINE,
};
