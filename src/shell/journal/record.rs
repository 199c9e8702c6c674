//! One journaled call's record: the entry of its task (once known), its writes to the store in order,
//! and the first store failure, which ends the call.
//!
//! Writes are queued and carried out one after the other by one local task, whether or not anybody
//! awaits them (a status write is not awaited by the wait; a later write carries its status if it is
//! lost). After a failure the writes left are skipped; the failure aborts the record's stop signal,
//! which the call's run watches, and the call ends with the journal's error outcome.

use super::entry::{self, answered, Session};
use super::hash::{digest, hash_text, text_of};
use super::key::key_of;
use super::lock::Held;
use super::{is_terminal, Journal};
use crate::engine::outcome::{TaskContext, CODE_INTERNAL};
use crate::engine::{Cause as EngineCause, ErrorKind, Outcome as EngineOutcome, TaskError as EngineTaskError};
use crate::json::Json;
use crate::shell::callbacks::Reply;
use crate::shell::interop::from_js::field;
use crate::shell::interop::to_js::js_string;
use js_sys::Reflect;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::{poll_fn, Future};
use std::rc::Rc;
use std::task::{Poll, Waker};
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::spawn_local;

/// A store that failed: the call's error outcome `{tag: "error", error: {code: -32603, kind:
/// "journal", message: "journal: <operation> failed: <detail>", data: {taskId, operation}, cause: {type:
/// "journal_failed", operation, error, status}}}`, made once, when the store fails (`operation`: `get`
/// (loading the entry) or `put`; `error`: what it threw or rejected with; `task_id` and `status`, the
/// task's last status: the task is never lost). (The removal at the end is best effort: not recorded.)
fn failure_outcome(
    operation: &'static str,
    error: &JsValue,
    task_id: JsValue,
    status: JsValue,
) -> EngineOutcome<JsValue> {
    EngineOutcome::Error(EngineTaskError {
        code: CODE_INTERNAL,
        message: ["journal: ", operation, " failed: ", &detail(error)].concat(),
        data: Some(JsValue::object(vec![("taskId", task_id.clone()), ("operation", js_string(operation))])),
        kind: ErrorKind::Journal,
        cause: Some(EngineCause::JournalFailed {
            operation,
            error: error.clone(),
            status: Some(status.clone()).filter(|s| !s.is_null()),
        }),
        task: task_id
            .as_string()
            .map(|task_id| Box::new(TaskContext { task_id, status: Some(status).filter(|s| !s.is_null()) })),
    })
}

/// The text of a store's failure: its `message` (else the value's own text; "unreadable error" when
/// reading either throws).
fn detail(e: &JsValue) -> String {
    let message =
        if e.is_object() || e.is_function() { Reflect::get(e, &js_string("message")) } else { Ok(JsValue::UNDEFINED) };
    match message {
        Ok(m) if m.is_undefined() || m.is_null() => text_of(e),
        Ok(m) => text_of(&m),
        Err(x) => Err(x),
    }
    .unwrap_or_else(|_| "unreadable error".to_owned())
}

/// A write to the store.
enum Write {
    /// Load (or create) the entry of the task and journal the status it came with.
    Open { task_id: String, tool: Option<String>, status: Option<JsValue>, session: Session },
    /// A new status.
    Status(JsValue),
    /// An answer for a key (with its hash).
    Answer { key: String, response: JsValue },
    /// A `tasks/update` carrying these keys was acknowledged: their answers go (the hashes stay).
    Acked(Vec<String>),
}

#[derive(Default)]
struct State {
    entry: Option<JsValue>,
    key: String,
    /// The first store failure: what the store threw.
    failed: Option<JsValue>,
    /// Its error outcome, until the call takes it ([`Record::failure`]).
    failure: Option<EngineOutcome<JsValue>>,
    queue: VecDeque<Write>,
    draining: bool,
    queued: u64,
    written: u64,
    wakers: Vec<Waker>,
}

/// One journaled call's record.
pub(crate) struct Record {
    journal: Journal,
    stop: Option<web_sys::AbortController>,
    state: RefCell<State>,
    lock: RefCell<Option<Held>>,
}

impl Record {
    /// A record of a call journaled in `journal`.
    pub(crate) fn new(journal: Journal) -> Rc<Self> {
        Rc::new(Self {
            journal,
            stop: web_sys::AbortController::new().ok(),
            state: RefCell::new(State::default()),
            lock: RefCell::new(None),
        })
    }

    /// The journal the record writes to.
    pub(crate) fn journal(&self) -> &Journal {
        &self.journal
    }

    /// Aborted by the first store failure (the run watches it).
    pub(crate) fn stop_signal(&self) -> Option<web_sys::AbortSignal> {
        self.stop.as_ref().map(web_sys::AbortController::signal)
    }

    /// The task, once journaled.
    pub(crate) fn task_id(&self) -> Option<String> {
        self.state.borrow().entry.as_ref().and_then(|e| e.get_str("taskId"))
    }

    /// The error outcome of the first store failure, taken: the call that ends with it takes it once.
    pub(crate) fn failure(&self) -> Option<EngineOutcome<JsValue>> {
        self.state.borrow_mut().failure.take()
    }

    /// Keeps `held` (the task's Web Lock) until [`Record::release`].
    pub(crate) fn keep_lock(&self, held: Option<Held>) {
        *self.lock.borrow_mut() = held;
    }

    /// Releases the lock kept, if any.
    pub(crate) fn release(&self) {
        drop(self.lock.borrow_mut().take());
    }

    /// The keys answered before, as `awaitTask`'s `answered` (with the answers not acknowledged).
    pub(crate) fn answered_before(&self) -> Vec<(String, Option<JsValue>)> {
        let entry = self.state.borrow().entry.clone();
        let items = entry.as_ref().map_or_else(js_sys::Array::new, answered);
        items.iter().map(|a| (a.get_str("key").unwrap_or_default(), field(&a, "answer"))).collect()
    }

    /// Loads (or creates) the entry of `task_id` and journals `status` and the client's `session`
    /// (`Client::generation_and_session`); resolves once it is stored (or failed).
    pub(crate) fn open(
        self: &Rc<Self>,
        task_id: &str,
        tool: Option<String>,
        status: Option<JsValue>,
        session: Session,
    ) -> impl Future<Output = ()> + '_ {
        let seq = self.enqueue(Write::Open { task_id: task_id.to_owned(), tool, status, session });
        self.written(seq)
    }

    /// A new status seen (not awaited: a later write carries it if this one is lost). Terminal ones are
    /// not journaled: the entry goes at the end.
    pub(crate) fn status(self: &Rc<Self>, status: &JsValue) {
        if self.state.borrow().entry.is_none() || !status.is_object() {
            return;
        }
        if matches!(status.get_str("status").as_deref(), Some("completed" | "failed" | "cancelled")) {
            return;
        }
        self.enqueue(Write::Status(status.clone()));
    }

    /// Journals each `(key, answer)` before it may be sent (nothing before the task exists: an MRTR
    /// round). `Err`: what the store threw (the call ends).
    pub(crate) fn answer(
        self: &Rc<Self>,
        answers: Vec<(String, JsValue)>,
    ) -> impl Future<Output = Result<(), JsValue>> + '_ {
        let journaled = self.state.borrow().entry.is_some();
        let mut seq = 0;
        for (key, response) in answers.into_iter().filter(|_| journaled) {
            seq = self.enqueue(Write::Answer { key, response });
        }
        poll_fn(move |cx| {
            let mut s = self.state.borrow_mut();
            if s.written < seq {
                s.wakers.push(cx.waker().clone());
                return Poll::Pending;
            }
            Poll::Ready(match &s.failed {
                Some(error) if journaled => Err(error.clone()),
                _ => Ok(()),
            })
        })
    }

    /// A `tasks/update` carrying `keys` was acknowledged.
    pub(crate) fn acked(self: &Rc<Self>, keys: Vec<String>) {
        if self.state.borrow().entry.is_some() {
            self.enqueue(Write::Acked(keys));
        }
    }

    /// Resolves when every write queued so far is done.
    pub(crate) fn idle(&self) -> impl Future<Output = ()> + '_ {
        let seq = self.state.borrow().queued;
        self.written(seq)
    }

    /// The call ended with `outcome` and the record is [`Record::idle`]: a terminal outcome removes the
    /// entry — the store's `delete`, to await (a failed removal loses nothing: the entry is found
    /// terminal, or expired, on the next resume).
    pub(crate) fn finish(&self, outcome: &EngineOutcome<JsValue>) -> Option<Reply> {
        let key = {
            let s = self.state.borrow();
            if s.entry.is_none() || s.failed.is_some() || !is_terminal(outcome) {
                return None;
            }
            s.key.clone()
        };
        Some(self.journal.store.delete(&key))
    }

    /// Queues `w`; its sequence number.
    fn enqueue(self: &Rc<Self>, w: Write) -> u64 {
        let (seq, start) = {
            let mut s = self.state.borrow_mut();
            s.queue.push_back(w);
            s.queued += 1;
            (s.queued, !std::mem::replace(&mut s.draining, true))
        };
        if start {
            spawn_local(drain(self.clone()));
        }
        seq
    }

    /// Resolves once write `seq` is done.
    fn written(&self, seq: u64) -> impl Future<Output = ()> + '_ {
        poll_fn(move |cx| {
            let mut s = self.state.borrow_mut();
            if s.written >= seq {
                return Poll::Ready(());
            }
            s.wakers.push(cx.waker().clone());
            Poll::Pending
        })
    }

    /// What `w` needs first, to await before [`Record::apply`]: the stored entry, the answer's digest
    /// (`None`: nothing). `Err`: what starting it threw.
    fn first(&self, w: &Write) -> Result<Option<Reply>, JsValue> {
        Ok(match w {
            Write::Open { task_id, .. } => Some(self.journal.store.get(&key_of(&self.journal.server, task_id))),
            Write::Answer { response, .. } => Some(digest(response)?),
            Write::Status(_) | Write::Acked(_) => None,
        })
    }

    /// Changes the entry by `w` (`got`: what it needed first); the key and the entry to put (`None`
    /// when there is no entry).
    fn apply(&self, w: Write, got: &JsValue) -> Option<(String, JsValue)> {
        let mut s = self.state.borrow_mut();
        let next = match w {
            Write::Open { task_id, tool, status, session } => {
                let server = &self.journal.server;
                let opened = entry::open(got, server, &task_id, tool, session);
                s.key = key_of(server, &task_id);
                match &status {
                    Some(status) => entry::see(&opened, status),
                    None => opened,
                }
            }
            Write::Status(status) => entry::see(s.entry.as_ref()?, &status),
            Write::Answer { key, response } => entry::answer(s.entry.as_ref()?, &key, &hash_text(got), &response),
            Write::Acked(keys) => entry::acked(s.entry.as_ref()?, &keys),
        };
        s.entry = Some(next.clone());
        Some((s.key.clone(), next))
    }

    /// Records the store's failure `e` in `operation` (the first one only) and aborts the stop signal.
    fn fail(&self, operation: &'static str, e: JsValue) {
        let (task_id, status) = {
            let s = self.state.borrow();
            if s.failed.is_some() {
                return;
            }
            let read = |key| s.entry.as_ref().and_then(|x| field(x, key)).unwrap_or(JsValue::NULL);
            (read("taskId"), read("status"))
        };
        // Outside the borrow: reading the error's message may run application code.
        let outcome = failure_outcome(operation, &e, task_id, status);
        {
            let mut s = self.state.borrow_mut();
            if s.failed.is_none() {
                (s.failed, s.failure) = (Some(e.clone()), Some(outcome));
            }
        }
        // Outside the borrow: the abort runs the signal's listeners at once.
        if let Some(c) = &self.stop {
            c.abort_with_reason(&e);
        }
    }
}

/// Carries out the queued writes one after the other until none is left (skipping them after a
/// failure), waking whoever awaits each.
async fn drain(record: Rc<Record>) {
    loop {
        let next = {
            let mut s = record.state.borrow_mut();
            let w = s.queue.pop_front();
            if w.is_none() {
                s.draining = false;
            }
            w.map(|w| (w, s.failed.is_some()))
        };
        let Some((w, skip)) = next else { return };
        // The write: what it needs first, then the change to the entry and the `put` of it (the two
        // awaits of this one loop: no nested future per write).
        if !skip {
            // Loading the entry is the store's `get`; everything else ends in its `put`.
            let operation = if matches!(w, Write::Open { .. }) { "get" } else { "put" };
            let got = match record.first(&w) {
                Ok(Some(reply)) => reply.await,
                Ok(None) => Ok(JsValue::UNDEFINED),
                Err(e) => Err(e),
            };
            let put = match got {
                Err(e) => Err((operation, e)),
                Ok(got) => Ok(record.apply(w, &got).map(|(key, entry)| record.journal.store.put(&key, &entry))),
            };
            let done = match put {
                Ok(Some(reply)) => reply.await.map(drop).map_err(|e| ("put", e)),
                Ok(None) => Ok(()),
                Err(e) => Err(e),
            };
            if let Err((operation, e)) = done {
                record.fail(operation, e);
            }
        }
        let wakers = {
            let mut s = record.state.borrow_mut();
            s.written += 1;
            std::mem::take(&mut s.wakers)
        };
        wakers.into_iter().for_each(Waker::wake);
    }
}
