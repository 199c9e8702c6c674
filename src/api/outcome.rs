//! What a call ends with, typed: [`CallOutcome`], [`WaitOutcome`] (their errors are `super::error`'s) — the same ends the JS
//! functions write as tagged objects, converted from the engine's outcome without a JS object built or
//! read (but `TaskError::value`, the error object itself); results, statuses and responses stay the
//! very JS values that arrived.

use super::error::{Error, TaskError};
use super::result::{InputRequired, ToolResult};
use super::status::{InputRequest, TaskStatus};
use crate::json::Json;
use crate::shell::{EngineOutcome, Outcome};
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// What [`call_tool`](crate::call_tool) ends with (JS: `callTool`'s tagged outcome object).
///
/// ```no_run
/// use mcp_tasks_wasm::{call_tool, CallOptions, CallOutcome, HttpClient};
/// # async fn run() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// match call_tool(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default()).await? {
///     CallOutcome::Task(status) => web_sys::console::log_1(&status.task_id.as_str().into()),
///     CallOutcome::Ok(result) => web_sys::console::log_1(&result.text().into()),
///     CallOutcome::Error(error) => web_sys::console::error_1(&error.message.as_str().into()),
///     CallOutcome::InputRequired(needed) => web_sys::console::log_1(&needed.value),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub enum CallOutcome {
    /// `{tag: "task", status}`: the server created a task (not awaited).
    Task(TaskStatus),
    /// `{tag: "ok", result}`: the server answered with the tool's result at once, as sent.
    Ok(ToolResult),
    /// `{tag: "error", error}`: a JSON-RPC error, a request failed or timed out, the server broke the
    /// protocol, an input handler failed, or the journal's store failed.
    Error(TaskError),
    /// `{tag: "input_required", source: "call", status}`: an MRTR round needs input the library may
    /// not answer.
    InputRequired(InputRequired),
}

/// What [`await_task`](crate::await_task) and [`call_and_await`](crate::call_and_await) end with (JS:
/// their tagged outcome objects) — never a bare task: a wait ends with the task's end, or with why it
/// stopped waiting.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, HttpClient, WaitOutcome};
/// # async fn run() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// match call_and_await(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default(), AwaitOptions::default()).await? {
///     WaitOutcome::Ok(result) => web_sys::console::log_1(&result.text().into()),
///     WaitOutcome::Error(error) if error.is_timeout() => { /* still running: await it again later */ }
///     WaitOutcome::Error(error) => web_sys::console::error_1(&error.to_string().into()),
///     WaitOutcome::Cancelled(status) => web_sys::console::log_1(&status.task_id.as_str().into()),
///     WaitOutcome::InputRequired(needed) => web_sys::console::log_1(&needed.value),
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub enum WaitOutcome {
    /// `{tag: "ok", result}`: the tool's result (the completed task's, or the call's own), as sent.
    Ok(ToolResult),
    /// `{tag: "error", error}`: the task failed, a request failed or timed out, the wait timed out
    /// ([`TaskError::is_timeout`]), the server broke the protocol, an input handler failed, or the
    /// journal's store failed.
    Error(TaskError),
    /// `{tag: "cancelled", status}`: the task ended cancelled.
    Cancelled(TaskStatus),
    /// `{tag: "input_required", source, status}`: input is needed that the library may not answer (a
    /// task's round, or — from `call_and_await` — the call's MRTR round).
    InputRequired(InputRequired),
}

impl CallOutcome {
    /// Reads `callTool`'s tagged outcome object; `None` for anything else.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::CallOutcome;
    /// let value = js_sys::JSON::parse(r#"{"tag":"ok","result":{"content":[]}}"#).unwrap();
    /// assert!(matches!(CallOutcome::from_js(&value), Some(CallOutcome::Ok(_))));
    /// ```
    pub fn from_js(value: &JsValue) -> Option<Self> {
        match value.get_str("tag")?.as_str() {
            "task" => Some(Self::Task(TaskStatus::from_js(&value.get("status")?)?)),
            _ => Some(match WaitOutcome::from_js(value)? {
                WaitOutcome::Ok(r) => Self::Ok(r),
                WaitOutcome::Error(e) => Self::Error(e),
                WaitOutcome::InputRequired(i) => Self::InputRequired(i),
                WaitOutcome::Cancelled(_) => return None,
            }),
        }
    }

    /// `call_tool`'s end, typed. `None`: not an end `call_tool` has.
    pub(crate) fn of(ended: Outcome) -> Option<Self> {
        match ended {
            Outcome::Engine(EngineOutcome::Task(s)) => Some(Self::Task(TaskStatus::from_js(&s)?)),
            Outcome::Engine(EngineOutcome::Result(value)) => Some(Self::Ok(ToolResult { value })),
            Outcome::Engine(EngineOutcome::Error(f)) => Some(Self::Error(TaskError::of(f))),
            Outcome::Engine(EngineOutcome::CallInputRequired(s)) => {
                Some(Self::InputRequired(InputRequired::from_js(&s)))
            }
            #[cfg(feature = "journal")]
            Outcome::Told(value) => Self::from_js(&value),
            Outcome::Engine(_) => None,
        }
    }

    /// The tool's result, when the outcome is [`CallOutcome::Ok`].
    pub fn result(&self) -> Option<&ToolResult> {
        match self {
            Self::Ok(r) => Some(r),
            _ => None,
        }
    }

    /// The task created, when the outcome is [`CallOutcome::Task`].
    pub fn task(&self) -> Option<&TaskStatus> {
        match self {
            Self::Task(s) => Some(s),
            _ => None,
        }
    }

    /// The call as a `Result`, for `?`: the task it created or the tool's successful result is `Ok`;
    /// an error outcome is `Err(Error::Task)`, input the library may not answer
    /// `Err(Error::InputRequired)`, a result with `isError: true` `Err(Error::ToolError)`.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{call_tool, CallOptions, Called, HttpClient};
    /// # async fn run() -> Result<(), mcp_tasks_wasm::Error> {
    /// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
    /// match call_tool(&client, "slow", &serde_json::json!({"ms": 50}), CallOptions::default()).await?.into_result()? {
    ///     Called::Task(status) => web_sys::console::log_1(&status.task_id.as_str().into()), // await it later
    ///     Called::Done(result) => web_sys::console::log_1(&result.text().into()),
    /// }
    /// # Ok(()) }
    /// ```
    pub fn into_result(self) -> Result<Called, Error> {
        match self {
            Self::Task(s) => Ok(Called::Task(s)),
            Self::Ok(r) if r.is_error() => Err(Error::ToolError(r)),
            Self::Ok(r) => Ok(Called::Done(r)),
            Self::Error(e) => Err(Error::Task(e)),
            Self::InputRequired(i) => Err(Error::InputRequired(Box::new(i))),
        }
    }
}

/// What a call that went well gave ([`CallOutcome::into_result`]): a task to await, or the tool's
/// result at once.
#[derive(Clone, Debug)]
pub enum Called {
    /// The server created a task (await it with [`await_task`](crate::await_task)).
    Task(TaskStatus),
    /// The server answered with the tool's successful result at once.
    Done(ToolResult),
}

impl WaitOutcome {
    /// Reads a wait's tagged outcome object (`{tag, result?, status?, error?}`); `None` for anything
    /// else (a `task` outcome too).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::WaitOutcome;
    /// let value = js_sys::JSON::parse(r#"{"tag":"ok","result":{"content":[]}}"#).unwrap();
    /// assert!(matches!(WaitOutcome::from_js(&value), Some(WaitOutcome::Ok(_))));
    /// ```
    pub fn from_js(value: &JsValue) -> Option<Self> {
        Some(match value.get_str("tag")?.as_str() {
            "ok" => Self::Ok(ToolResult { value: value.get("result")? }),
            "cancelled" => Self::Cancelled(TaskStatus::from_js(&value.get("status")?)?),
            "input_required" => Self::InputRequired(InputRequired::from_js(&value.get("status")?)),
            "error" => Self::Error(TaskError::from_outcome(value, &value.get("error")?)),
            _ => return None,
        })
    }

    /// A wait's end: the engine's outcome, converted, or the outcome object another waiter of a
    /// journaled task broadcast, read. `None`: not an end a wait has.
    pub(crate) fn of(ended: Outcome) -> Option<Self> {
        match ended {
            Outcome::Engine(o) => Self::from_engine(o),
            #[cfg(feature = "journal")]
            Outcome::Told(value) => Self::from_js(&value),
        }
    }

    fn from_engine(o: EngineOutcome<JsValue>) -> Option<Self> {
        Some(match o {
            EngineOutcome::Result(value) => Self::Ok(ToolResult { value }),
            EngineOutcome::Cancelled(s) => Self::Cancelled(TaskStatus::from_js(&s)?),
            EngineOutcome::InputRequired(s) | EngineOutcome::CallInputRequired(s) => {
                Self::InputRequired(InputRequired::from_js(&s))
            }
            EngineOutcome::Error(f) => Self::Error(TaskError::of(f)),
            EngineOutcome::Task(_) | EngineOutcome::Status(_) | EngineOutcome::Ack | EngineOutcome::Tasks { .. } => {
                return None
            }
        })
    }

    /// The tool's result, when the outcome is [`WaitOutcome::Ok`].
    ///
    /// ```no_run
    /// # fn f(outcome: mcp_tasks_wasm::WaitOutcome) {
    /// if let Some(result) = outcome.result() {
    ///     web_sys::console::log_1(&result.text().into());
    /// }
    /// # }
    /// ```
    pub fn result(&self) -> Option<&ToolResult> {
        match self {
            Self::Ok(r) => Some(r),
            _ => None,
        }
    }

    /// The wait as a `Result`, for `?` (as reqwest's `error_for_status`): the tool's successful result
    /// is `Ok`; an error outcome is `Err(Error::Task)` (a timeout, a failed task, … — the predicates
    /// tell them apart), a cancelled task `Err(Error::Cancelled)`, input the library may not answer
    /// `Err(Error::InputRequired)`, and a result with `isError: true` `Err(Error::ToolError)`.
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, Error, HttpClient};
    /// # async fn run() -> Result<(), Error> {
    /// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
    /// let args = serde_json::json!({"ms": 50});
    /// let result = call_and_await(&client, "slow", &args, CallOptions::default(), AwaitOptions::default())
    ///     .await?
    ///     .into_result()?;
    /// web_sys::console::log_1(&result.text().into());
    /// # Ok(()) }
    /// ```
    pub fn into_result(self) -> Result<ToolResult, Error> {
        match self {
            Self::Ok(r) if r.is_error() => Err(Error::ToolError(r)),
            Self::Ok(r) => Ok(r),
            Self::Error(e) => Err(Error::Task(e)),
            Self::Cancelled(s) => Err(Error::Cancelled(Box::new(s))),
            Self::InputRequired(i) => Err(Error::InputRequired(Box::new(i))),
        }
    }
}

impl ToolResult {
    /// The whole result as the caller's type (serde-wasm-bindgen); `Err`:
    /// [`Error::InvalidArgument`](Error::InvalidArgument) when it does not fit.
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), mcp_tasks_wasm::Error> {
    /// let any: serde_json::Value = result.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        deserialize("result", &self.value)
    }

    /// The result's `structuredContent` as the caller's type: `Ok(None)` when the result has none,
    /// `Err(Error::InvalidArgument)` when it does not fit `T`.
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// struct Sum { total: u32 }
    /// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), mcp_tasks_wasm::Error> {
    /// if let Some(sum) = result.structured::<Sum>()? { assert!(sum.total > 0); }
    /// # Ok(()) }
    /// ```
    pub fn structured<T: DeserializeOwned>(&self) -> Result<Option<T>, Error> {
        match self.value.get("structuredContent") {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => deserialize("structuredContent", &v).map(Some),
        }
    }
}

impl InputRequest {
    /// Its `params` as the caller's type (serde-wasm-bindgen); `Err`:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when they do not fit it.
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// struct Form { message: String }
    /// # fn f(request: mcp_tasks_wasm::InputRequest) -> Result<(), mcp_tasks_wasm::Error> {
    /// let form: Form = request.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        deserialize("params", &self.params)
    }
}

/// A JS value as the caller's type `T`; `Err`: [`Error::InvalidArgument`] with serde's message, after
/// `what` (the part read: `params`, `result`, …).
pub(super) fn deserialize<T: serde::de::DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, Error> {
    crate::shell::deserialize(value).map_err(|m| Error::not_fitting(what, &m))
}
