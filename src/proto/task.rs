//! The Task object: reading a status from `tools/call`, `tasks/get`, a notification or the caller,
//! with precise messages where the protocol is broken.

use super::input::input_entries;
use crate::json::{Json, Kind};

/// Where a task is (JS: the status's `status` field): the five states, a closed set. Serializes as
/// the wire string.
///
/// ```
/// use mcp_tasks_wasm::TaskState;
/// assert!(TaskState::Completed.is_terminal());
/// assert_eq!(TaskState::parse("input_required"), Some(TaskState::InputRequired));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskState {
    /// The server is working on it.
    Working,
    /// The server waits for answers to `inputRequests`.
    InputRequired,
    /// Finished with a `result`.
    Completed,
    /// Finished with an `error`.
    Failed,
    /// Cancelled.
    Cancelled,
}

impl TaskState {
    /// Reads a wire status string (`None` for one outside the set).
    ///
    /// ```
    /// assert_eq!(mcp_tasks_wasm::TaskState::parse("paused"), None);
    /// ```
    pub fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "working" => Self::Working,
            "input_required" => Self::InputRequired,
            "completed" => Self::Completed,
            "failed" => Self::Failed,
            "cancelled" => Self::Cancelled,
            _ => return None,
        })
    }
    /// The wire string (`"input_required"`, …).
    ///
    /// ```
    /// assert_eq!(mcp_tasks_wasm::TaskState::InputRequired.as_str(), "input_required");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Working => "working",
            Self::InputRequired => "input_required",
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Cancelled => "cancelled",
        }
    }

    /// `true` for completed, failed and cancelled.
    ///
    /// ```
    /// assert!(!mcp_tasks_wasm::TaskState::Working.is_terminal());
    /// ```
    pub fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// Where a task object came from; decides how `resultType` is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// A `CreateTaskResult` (`resultType` was already checked to be `"task"`).
    Created,
    /// A `tasks/get` result: `resultType` absent or `"complete"`; `"task"` is accepted leniently
    /// (the extension's own examples send it, see the reference's Q2).
    Get,
    /// A `notifications/tasks` event or a status handed in by the caller: `resultType` is ignored.
    Pushed,
}

/// A task status as the engine needs it, plus the status object handed to the application.
#[derive(Clone, Debug)]
pub(crate) struct TaskView<V> {
    /// `taskId`.
    pub task_id: String,
    /// `status`.
    pub state: TaskState,
    /// `statusMessage`, when it is a string.
    pub status_message: Option<String>,
    /// `pollIntervalMs`, when it is a number.
    pub poll_interval_ms: Option<f64>,
    /// `lastUpdatedAt`, when it is a string.
    pub last_updated_at: Option<String>,
    /// `createdAt`, when it is a string.
    pub created_at: Option<String>,
    /// `ttlMs`, when it is a non-negative number (`null`, absent or anything else: no TTL).
    pub ttl_ms: Option<f64>,
    /// `inputRequests` as `(key, request)` pairs, when present.
    pub input_requests: Option<Vec<(String, V)>>,
    /// `result`, when present.
    pub result: Option<V>,
    /// `error`, when present.
    pub error: Option<V>,
    /// The status object for the application: the wire Task's fields as sent (`taskId, status,
    /// statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs, inputRequests, result, error`,
    /// each only when present), without the envelope's `resultType` and `_meta`.
    pub object: V,
}

/// The Task fields copied into a status object, in this order.
pub(crate) const TASK_FIELDS: [&str; 10] = [
    "taskId",
    "status",
    "statusMessage",
    "createdAt",
    "lastUpdatedAt",
    "ttlMs",
    "pollIntervalMs",
    "inputRequests",
    "result",
    "error",
];

/// Reads a task object. `Err` carries a message naming the problem.
pub(crate) fn read_task<J: Json>(value: &J, source: Source) -> Result<TaskView<J>, String> {
    if !value.is_object() {
        return Err("the task is not an object".to_owned());
    }
    if source == Source::Get {
        match value.get("resultType") {
            None => {}
            Some(rt) => match rt.as_str().as_deref() {
                Some("complete" | "task") => {}
                Some(other) => return Err(["tasks/get answered with resultType \"", other, "\""].concat()),
                None => return Err("tasks/get answered with a resultType that is not a string".to_owned()),
            },
        }
    }
    let task_id = match value.get("taskId") {
        None => return Err("the task has no taskId".to_owned()),
        Some(id) => match id.as_str() {
            Some(s) if !s.is_empty() => s,
            _ => return Err("the task's taskId is not a non-empty string".to_owned()),
        },
    };
    let state = match value.get_str("status") {
        None => return Err(["task ", task_id.as_str(), " has no status"].concat()),
        Some(s) => TaskState::parse(&s)
            .ok_or_else(|| ["task ", task_id.as_str(), " has an unknown status \"", s.as_str(), "\""].concat())?,
    };
    let input_requests = match value.get("inputRequests") {
        None => None,
        Some(r) if r.kind() == Kind::Null => None,
        Some(r) if r.is_object() => match input_entries(&["task ", task_id.as_str()].concat(), &r)? {
            Some(e) => Some(e),
            None => return Err(["task ", task_id.as_str(), " has inputRequests that cannot be read"].concat()),
        },
        Some(_) => return Err(["task ", task_id.as_str(), " has inputRequests that are not an object"].concat()),
    };
    let object = J::object(TASK_FIELDS.iter().filter_map(|&k| value.get(k).map(|v| (k, v))).collect());
    Ok(TaskView {
        state,
        status_message: value.get_str("statusMessage"),
        poll_interval_ms: value.get_f64("pollIntervalMs").filter(|n| !n.is_nan()),
        last_updated_at: value.get_str("lastUpdatedAt"),
        created_at: value.get_str("createdAt"),
        ttl_ms: value.get_f64("ttlMs").filter(|n| *n >= 0.0),
        input_requests,
        result: value.get("result"),
        error: value.get("error"),
        task_id,
        object,
    })
}

/// `lastUpdatedAt`, parsed (see [`parse_rfc3339`](super::time::parse_rfc3339)); `None` when absent or
/// unparsable.
pub(crate) fn updated_at<V>(view: &TaskView<V>) -> Option<(i64, u32)> {
    view.last_updated_at.as_deref().and_then(super::time::parse_rfc3339)
}

/// `true` when `newer` is provably older than a status last updated at `current` (its
/// [`updated_at`]): both parse and `newer`'s is earlier. Used to drop stale snapshots when a
/// notification and a poll interleave.
pub(crate) fn is_stale<V>(newer: &TaskView<V>, current: Option<(i64, u32)>) -> bool {
    match (updated_at(newer), current) {
        (Some(n), Some(c)) => n < c,
        _ => false,
    }
}

/// How long, in ms, the task had existed when `view` was taken, as far as the server's own clock says
/// (`lastUpdatedAt − createdAt`, at least 0; 0 when either does not parse). Using only server
/// timestamps keeps clock skew between client and server out of the TTL backstop.
pub(crate) fn age_ms<V>(view: &TaskView<V>) -> f64 {
    match (view.created_at.as_deref().and_then(super::time::parse_rfc3339), updated_at(view)) {
        (Some(c), Some(u)) if u > c => (u.0 - c.0) as f64 * 1e3 + (f64::from(u.1) - f64::from(c.1)) / 1e6,
        _ => 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::{age_ms, is_stale, updated_at, TaskState, TaskView};

    fn view(created: &str, updated: &str) -> TaskView<()> {
        TaskView {
            task_id: "t".into(),
            state: TaskState::Working,
            status_message: None,
            poll_interval_ms: None,
            last_updated_at: Some(updated.into()),
            created_at: Some(created.into()),
            ttl_ms: None,
            input_requests: None,
            result: None,
            error: None,
            object: (),
        }
    }

    #[test]
    fn age_spans_seconds_fractions_and_offsets() {
        assert_eq!(age_ms(&view("2026-09-01T08:00:00.900Z", "2026-09-01T08:00:01.100Z")), 200.0);
        assert_eq!(age_ms(&view("2026-09-01T08:00:00Z", "2026-09-01T10:01:00.5+02:00")), 60_500.0);
        assert_eq!(age_ms(&view("9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z")), 0.0, "never negative");
        assert_eq!(age_ms(&view("2026-09-01T08:00:00Z", "soon")), 0.0);
    }

    #[test]
    fn stale_only_when_both_parse_and_newer_is_earlier() {
        let at = |t: &str| view("2026-09-01T08:00:00Z", t);
        let current = |t: &str| updated_at(&at(t));
        assert!(is_stale(&at("2026-09-01T08:00:00.999999999Z"), current("2026-09-01T08:00:01Z")));
        assert!(!is_stale(&at("2026-09-01T08:00:01Z"), current("2026-09-01T10:00:01+02:00")), "the same instant");
        assert!(!is_stale(&at("2026-09-01T08:00:01.000000001Z"), current("2026-09-01T08:00:01Z")));
        assert!(!is_stale(&at("bad"), current("2026-09-01T08:00:01Z")));
        assert!(!is_stale(&at("2026-09-01T08:00:01Z"), current("bad")));
    }
}
