//! Requests in flight: their ids, what they were for, and when each must be given up; and what a
//! request that ended without an answer means.

use super::{later, Action, Millis, Queue, ReqId, TaskError};
use crate::json::Json;
use crate::proto::request::Call;
use crate::proto::rpc::{is_transient, retry_after_ms};

/// One request in flight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Flight {
    /// Its id.
    pub id: ReqId,
    /// What it was sent for: a number of the machine's choosing (0 for a machine with one kind of
    /// request). Not a type parameter: one copy of this code serves every machine.
    pub purpose: u32,
    /// Its method.
    pub method: &'static str,
    /// When it is given up (`None`: never, by itself).
    pub expires: Option<Millis>,
    /// Its timeout, as handed to the client.
    pub timeout_ms: Option<u64>,
}

/// How a request ended without a JSON-RPC answer.
#[derive(Clone, Debug)]
pub(crate) enum Lost<V> {
    /// It outlived its own timeout (`requestTimeoutMs`, shorter than the time left).
    Timeout,
    /// `request` rejected with this value (not a JSON-RPC error).
    Failed(V),
}

impl<J: Json> Lost<J> {
    /// `true` when re-issuing the request may help (see [`is_transient`]); a timeout always may.
    pub(crate) fn transient(&self) -> bool {
        match self {
            Self::Timeout => true,
            Self::Failed(e) => is_transient(e),
        }
    }

    /// The `Retry-After` the transport exposed, if any.
    pub(crate) fn retry_after(&self) -> Option<u64> {
        match self {
            Self::Timeout => None,
            Self::Failed(e) => retry_after_ms(e),
        }
    }

    /// The error outcome for this loss of `flight`: `subject` names what was waited for, `status` is
    /// the last status read.
    pub(crate) fn failure(self, flight: &Flight, subject: (&str, &str), status: Option<J>) -> TaskError<J> {
        match self {
            Self::Timeout => {
                TaskError::request_timeout(subject, flight.method, flight.timeout_ms.unwrap_or_default(), status)
            }
            Self::Failed(e) => TaskError::transport(flight.method, e),
        }
    }
}

/// The requests in flight of one machine, with the bounds every request obeys.
#[derive(Debug)]
pub(crate) struct Flights {
    next_id: u32,
    open: Vec<Flight>,
    /// The deadline of the whole call.
    pub deadline: Option<Millis>,
    /// The per-request bound.
    pub request_timeout_ms: Option<u64>,
}

impl Flights {
    /// No requests yet; every request will be bounded by `deadline` and `request_timeout_ms`.
    pub(crate) fn new(deadline: Option<Millis>, request_timeout_ms: Option<u64>) -> Self {
        Self { next_id: 1, open: Vec::new(), deadline, request_timeout_ms }
    }

    /// The time a request started at `now` may take: the time left or the request timeout, the shorter.
    pub(crate) fn timeout_at(&self, now: Millis) -> Option<u64> {
        let left = self.deadline.map(|d| d.saturating_sub(now));
        match (left, self.request_timeout_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Starts a request at `now`, bounded by [`Flights::timeout_at`].
    pub(crate) fn send<V>(&mut self, purpose: u32, call: Call<V>, now: Millis, out: &mut Queue<V>) -> ReqId {
        let timeout_ms = self.timeout_at(now);
        self.send_for(purpose, call, timeout_ms, now, out)
    }

    /// Starts a request at `now` that may take the whole time left (`requestTimeoutMs` does not bound
    /// it: an MCP 2025-11-25 `tasks/result` held open while the task needs input).
    pub(crate) fn send_long<V>(&mut self, purpose: u32, call: Call<V>, now: Millis, out: &mut Queue<V>) -> ReqId {
        let timeout_ms = self.deadline.map(|d| d.saturating_sub(now));
        self.send_for(purpose, call, timeout_ms, now, out)
    }

    fn send_for<V>(
        &mut self,
        purpose: u32,
        call: Call<V>,
        timeout_ms: Option<u64>,
        now: Millis,
        out: &mut Queue<V>,
    ) -> ReqId {
        let id = ReqId(self.next_id);
        self.next_id += 1;
        let expires = timeout_ms.map(|t| later(now, t));
        if self.open.capacity() == 0 {
            self.open.reserve_exact(1); // one request in flight is the rule: room for one (memory per wait)
        }
        self.open.push(Flight { id, purpose, method: call.method(), expires, timeout_ms });
        out.push_back(Action::Send { req: id, call, timeout_ms });
        id
    }

    /// Takes the request `id` out of flight (its reply arrived); `None` when it is not in flight.
    pub(crate) fn land(&mut self, id: ReqId) -> Option<Flight> {
        let at = self.open.iter().position(|f| f.id == id)?;
        let f = self.open.remove(at);
        if self.open.is_empty() {
            self.open = Vec::new(); // nothing in flight: no buffer kept (memory per wait)
        }
        Some(f)
    }

    /// `true` when a request for `purpose` is in flight.
    pub(crate) fn has(&self, purpose: u32) -> bool {
        self.open.iter().any(|f| f.purpose == purpose)
    }

    /// The earliest time a request must be given up.
    pub(crate) fn earliest_expiry(&self) -> Option<Millis> {
        self.open.iter().filter_map(|f| f.expires).min()
    }

    /// A request whose time is up at `now`, taken out of flight and aborted.
    pub(crate) fn take_expired<V>(&mut self, now: Millis, out: &mut Queue<V>) -> Option<Flight> {
        let at = self.open.iter().position(|f| f.expires.is_some_and(|e| e <= now))?;
        let f = self.open.remove(at);
        out.push_back(Action::Abort { req: f.id });
        Some(f)
    }

    /// Aborts every request in flight.
    pub(crate) fn abort_all<V>(&mut self, out: &mut Queue<V>) {
        for f in self.open.drain(..) {
            out.push_back(Action::Abort { req: f.id });
        }
    }

    /// `true` when `now` is at or past the deadline.
    pub(crate) fn past_deadline(&self, now: Millis) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// How a landed request that failed at the transport level at `now` counts: a client that enforces
    /// the timeout it was handed may notice before the machine's own timer does, and the loss is then
    /// the same timeout.
    pub(crate) fn loss<V>(f: &Flight, error: V, now: Millis) -> Lost<V> {
        if f.expires.is_some_and(|e| now >= e) {
            Lost::Timeout
        } else {
            Lost::Failed(error)
        }
    }
}
