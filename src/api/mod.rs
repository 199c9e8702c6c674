//! The Rust API (the crate root re-exports it): the async functions, their options, the clients and
//! the typed outcomes. One implementation behind both APIs: the npm package's JS functions are
//! bindings over the same shell these functions call.

mod adapters;
mod callbacks;
mod calls;
mod clients;
mod convert;
mod helpers;
#[cfg(feature = "journal")]
mod journal;
mod outcome;
mod status;

pub use callbacks::{handler, input_function, on_status, Answer};
pub use calls::{await_task, call_and_await, call_tool, cancel_task, get_task, update_task, TaskRef};
pub use clients::{ClientInfo, ClientOptions, DirectClient, HttpClient, HttpOptions, JsClient, PortClient};
pub use helpers::{capabilities, server_supports};
#[cfg(feature = "journal")]
pub use journal::{pending_tasks, resume_tasks, OnOutcome, PendingTask, Resumed};
pub use outcome::{Cause, InputRequired, Outcome, TaskError, ToolResult};
pub use status::{InputRequest, TaskStatus};

pub use crate::shell::client::{Client, RequestOptions};
pub use crate::shell::hooks::{AskContext, HandlerFn, Handlers, InputFn, StatusFn};
#[cfg(feature = "journal")]
pub use crate::shell::journal::Store as JournalStore;
pub use crate::shell::options::{AwaitOptions, CallOptions, Input, StepOptions, NO_DEADLINE};
pub use crate::shell::reply::Reply;
