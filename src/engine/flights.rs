//! Requests in flight: their ids, what they were for, and when each must be given up.

use super::{later, Action, Failure, Millis, ReqId};
use crate::json::Json;
use crate::proto::request::Call;
use std::collections::VecDeque;

/// One request in flight.
#[derive(Clone, Copy, Debug)]
pub struct Flight<T> {
    /// Its id.
    pub id: ReqId,
    /// What it was sent for.
    pub purpose: T,
    /// Its method.
    pub method: &'static str,
    /// When it is given up (`None`: never, by itself).
    pub expires: Option<Millis>,
    /// Its timeout, as handed to the client.
    pub timeout_ms: Option<u64>,
}

/// Why a machine ran out of time.
#[derive(Clone, Copy, Debug)]
pub enum Overdue<T> {
    /// The whole call's deadline passed.
    Deadline,
    /// This request outlived its own timeout.
    Request(Flight<T>),
}

impl<T> Overdue<T> {
    /// The timeout outcome: `subject` names what was waited for, `timeout_ms` is the call's bound,
    /// `status` the last status read.
    pub fn failure<J: Json>(&self, subject: (&str, &str), timeout_ms: Option<u64>, status: Option<J>) -> Failure<J> {
        match self {
            Self::Deadline => Failure::timeout(subject, timeout_ms.unwrap_or_default(), status),
            Self::Request(f) => Failure::request_timeout(subject, f.method, f.timeout_ms.unwrap_or_default(), status),
        }
    }
}

/// The requests in flight of one machine, with the bounds every request obeys.
#[derive(Debug)]
pub struct Flights<T> {
    next_id: u32,
    open: Vec<Flight<T>>,
    /// The deadline of the whole call.
    pub deadline: Option<Millis>,
    /// The per-request bound.
    pub request_timeout_ms: Option<u64>,
}

impl<T: Copy + PartialEq> Flights<T> {
    /// No requests yet; every request will be bounded by `deadline` and `request_timeout_ms`.
    pub fn new(deadline: Option<Millis>, request_timeout_ms: Option<u64>) -> Self {
        Self { next_id: 1, open: Vec::new(), deadline, request_timeout_ms }
    }

    /// Starts a request at `now`: its timeout is the time left or the request timeout, the shorter.
    pub fn send<V>(&mut self, purpose: T, call: Call<V>, now: Millis, out: &mut VecDeque<Action<V>>) -> ReqId {
        let id = ReqId(self.next_id);
        self.next_id += 1;
        let left = self.deadline.map(|d| d.saturating_sub(now));
        let timeout_ms = match (left, self.request_timeout_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let expires = timeout_ms.map(|t| later(now, t));
        self.open.push(Flight { id, purpose, method: call.method(), expires, timeout_ms });
        out.push_back(Action::Send { req: id, call, timeout_ms });
        id
    }

    /// Takes the request `id` out of flight (its reply arrived); `None` when it is not in flight.
    pub fn land(&mut self, id: ReqId) -> Option<Flight<T>> {
        let at = self.open.iter().position(|f| f.id == id)?;
        Some(self.open.remove(at))
    }

    /// `true` when a request for `purpose` is in flight.
    pub fn has(&self, purpose: T) -> bool {
        self.open.iter().any(|f| f.purpose == purpose)
    }

    /// The earliest time a request must be given up.
    pub fn earliest_expiry(&self) -> Option<Millis> {
        self.open.iter().filter_map(|f| f.expires).min()
    }

    /// A request whose time is up at `now`.
    pub fn expired(&self, now: Millis) -> Option<Flight<T>> {
        self.open.iter().find(|f| f.expires.is_some_and(|e| e <= now)).copied()
    }

    /// Aborts every request in flight.
    pub fn abort_all<V>(&mut self, out: &mut VecDeque<Action<V>>) {
        for f in self.open.drain(..) {
            out.push_back(Action::Abort { req: f.id });
        }
    }

    /// `true` when `now` is at or past the deadline.
    pub fn past_deadline(&self, now: Millis) -> bool {
        self.deadline.is_some_and(|d| now >= d)
    }

    /// What ran out of time at `now`, if anything: the deadline first, then any request.
    pub fn overdue(&self, now: Millis) -> Option<Overdue<T>> {
        if self.past_deadline(now) {
            return Some(Overdue::Deadline);
        }
        self.expired(now).map(Overdue::Request)
    }

    /// For a request that failed at the transport level at `now` (already landed): whether it had run
    /// out of time. A client that enforces the timeout it was handed may notice before the machine's
    /// own timer does; the outcome is the same timeout either way.
    pub fn overdue_after(&self, f: Flight<T>, now: Millis) -> Option<Overdue<T>> {
        if self.past_deadline(now) {
            Some(Overdue::Deadline)
        } else if f.expires.is_some_and(|e| now >= e) {
            Some(Overdue::Request(f))
        } else {
            None
        }
    }
}
