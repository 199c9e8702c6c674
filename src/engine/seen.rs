//! What a wait keeps of the latest status it observed: what the next status is compared with, and the
//! status object handed to the application. Not the whole reading: its copies of the task id,
//! `createdAt` and `lastUpdatedAt` strings and its payload would stay allocated for the wait's whole
//! life (memory per wait).

use super::Millis;
use crate::proto::task::{is_stale, updated_at, TaskState, TaskView};

/// The latest status, as a wait keeps it.
#[derive(Debug)]
pub(crate) struct Seen<V> {
    /// The status object (what `onStatus` was given; the status of an error outcome).
    pub object: V,
    /// When it was observed.
    pub at: Millis,
    /// The interval to wait after it (the server's, else the option's, within the floor and ceiling).
    pub interval: u64,
    /// It names a payload it does not carry (then it is read at once).
    pub lacks_payload: bool,
    /// Its `lastUpdatedAt`, parsed.
    updated: Option<(i64, u32)>,
    /// Its `status`.
    pub state: TaskState,
    /// Its `statusMessage`.
    status_message: Option<String>,
    /// The keys of its `inputRequests`, in order.
    keys: Vec<String>,
}

impl<V> Seen<V> {
    /// Keeps `view`, observed at `at`, whose interval is `interval`.
    pub(crate) fn new(view: TaskView<V>, at: Millis, interval: u64, lacks_payload: bool) -> Self {
        Self {
            updated: updated_at(&view),
            state: view.state,
            status_message: view.status_message,
            keys: view.input_requests.map(|r| r.into_iter().map(|(k, _)| k).collect()).unwrap_or_default(),
            object: view.object,
            at,
            interval,
            lacks_payload,
        }
    }

    /// `true` when `view` says nothing an observer would call new: same state, same message, same
    /// outstanding input keys. `lastUpdatedAt` is ignored (some servers bump it on every read).
    pub(crate) fn same_status(&self, view: &TaskView<V>) -> bool {
        let keys = view.input_requests.iter().flatten().map(|(k, _)| k);
        self.state == view.state && self.status_message == view.status_message && self.keys.iter().eq(keys)
    }

    /// `true` when `view` is provably older than this status by `lastUpdatedAt` (see [`is_stale`]).
    pub(crate) fn is_newer_than(&self, view: &TaskView<V>) -> bool {
        is_stale(view, self.updated)
    }
}
