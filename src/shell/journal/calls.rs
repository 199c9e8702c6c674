//! The journaled calls: `call_tool`, `await_task` and `call_and_await` with a journal. Each runs the
//! engine's call (`crate::shell::start`) on a [`JournaledClient`] with journaled callbacks, watching the
//! record's stop signal besides the caller's; a store failure ends the call with its error outcome,
//! and a terminal outcome removes the entry.
//!
//! `cancelOnAbort` is the engine's, as without a journal: the record's stop signal is watched as an
//! [`AbortScope::Stop`](crate::engine::AbortScope::Stop), which never cancels the task.

use super::client::{journaled, journaled_handlers, journaled_status, JournaledClient};
use super::key::key_of;
use super::lock::{one_waiter, told, Body};
use super::record::Record;
use super::Journal;
use crate::engine::wait::TaskRef;
use crate::engine::{AbortScope, Millis};
use crate::json::Json;
use crate::shell::client::Client;
use crate::shell::clock::now;
use crate::shell::end::{CallFuture, Outcome};
use crate::shell::inbox::Inbox;
use crate::shell::invalid::InvalidArgument;
use crate::shell::options::time_limits;
use crate::shell::options::{AwaitOptions, CallOptions, Input, NO_DEADLINE};
use crate::shell::signals::Watch;
use crate::shell::signals::{is_aborted, subscribe};
use crate::shell::start::{self, check_await};
use crate::shell::timer::sleep_until;
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The call's options, its answers journaled.
fn call_options(record: &Rc<Record>, mut o: CallOptions) -> CallOptions {
    o.input_handlers = o.input_handlers.map(|h| journaled_handlers(record, h));
    if let Input::Function(f) = o.input {
        o.input = Input::Function(journaled(record, f));
    }
    o
}

/// The wait's options, its answers and statuses journaled.
fn await_options(record: &Rc<Record>, mut o: AwaitOptions) -> AwaitOptions {
    o.input_handlers = o.input_handlers.map(|h| journaled_handlers(record, h));
    if let Input::Function(f) = o.input {
        o.input = Input::Function(journaled(record, f));
    }
    o.on_status = Some(journaled_status(record, o.on_status));
    o
}

/// How long a journaled call waits on its store once its run ended: until its deadline, or its
/// caller's abort (a slow or stuck store never holds the outcome past them).
struct Limit {
    deadline: Option<Millis>,
    signal: Option<JsValue>,
}

impl Limit {
    /// The limit of a call bounded by `timeout` (`None`: the default) from now and by `signal`.
    fn new(timeout: Option<Duration>, signal: Option<&web_sys::AbortSignal>) -> Self {
        let ms = time_limits(timeout, None, None).deadline_ms;
        Self { deadline: ms.map(|ms| now().saturating_add(ms)), signal: signal.map(|s| s.clone().into()) }
    }

    /// Awaits `store_work` (the record's writes, the entry's removal), giving it up at the deadline or
    /// the abort.
    async fn wait(&self, store_work: Pin<Box<dyn Future<Output = ()> + '_>>) {
        if self.signal.as_ref().is_some_and(is_aborted) {
            return;
        }
        let inbox = Rc::new(Inbox::default());
        let _watch = self.signal.as_ref().and_then(|s| subscribe(s, &inbox, Watch::Abort(AbortScope::All)));
        let mut deadline = self.deadline.map(sleep_until);
        let mut work = store_work;
        poll_fn(|cx| {
            let late = deadline.as_mut().is_some_and(|d| Pin::new(d).poll(cx).is_ready());
            if late || inbox.poll_next(cx).is_ready() || work.as_mut().poll(cx).is_ready() {
                return Poll::Ready(());
            }
            Poll::Pending
        })
        .await;
    }
}

/// Awaits the run of `record`'s call; a store failure is the journal's error outcome, and a terminal outcome
/// removes the entry (and with `tell`, is broadcast to the task's other waiters). The record's writes
/// and the removal are awaited within `limit`; the removal is best effort: when it fails, throws, is
/// aborted or outlives the deadline, the call still settles with the task's outcome (decided before;
/// the entry left behind is found terminal on the next resume). The lock the record kept is released
/// at the end.
fn settle(record: Rc<Record>, run: CallFuture, tell: bool, limit: Limit) -> CallFuture {
    Box::pin(async move {
        let settled = run.await;
        limit.wait(Box::pin(record.idle())).await;
        let out = match (record.failure(), settled) {
            (Some(f), _) => Ok(Outcome::Engine(f)),
            (None, Ok(Outcome::Engine(outcome))) => {
                if let Some(removal) = record.finish(&outcome) {
                    limit.wait(Box::pin(async move { drop(removal.await) })).await;
                }
                told(&record.journal().server, record.task_id().filter(|_| tell), &outcome);
                Ok(Outcome::Engine(outcome))
            }
            (None, other) => other,
        };
        record.release();
        out
    })
}

/// `start::call_tool`, journaled in `journal`: a created task is journaled (and its lock held) before
/// the engine sees it, so before the outcome is given.
pub(crate) fn call_tool(
    client: Rc<dyn Client>,
    journal: Journal,
    name: &str,
    args: Option<JsValue>,
    options: CallOptions,
) -> CallFuture {
    let record = Record::new(journal);
    let watched = Rc::new(JournaledClient::new(client, record.clone(), Some(name.to_owned())));
    let limit = Limit::new(options.timeout, options.signal.as_ref());
    let options = call_options(&record, options);
    let run = start::call_tool(watched, name, args, options, record.stop_signal().as_ref());
    settle(record, run, false, limit)
}

/// `start::await_task`, journaled in `journal`, as the one waiter of the task across the origin (see
/// [`one_waiter`]): the entry is loaded (or created), its answered keys never asked again, and it is
/// removed at a terminal outcome. `Err`: the task reference or the options are wrong (nothing was sent).
pub(crate) fn await_task(
    client: Rc<dyn Client>,
    journal: Journal,
    task: TaskRef<JsValue>,
    options: AwaitOptions,
) -> Result<CallFuture, InvalidArgument> {
    check_await(client.as_ref(), &task, &options)?;
    let task_id = match &task {
        TaskRef::TaskId(id) => Some(id.clone()),
        TaskRef::Status(s) => s.get_str("taskId"),
    }
    .filter(|id| !id.is_empty())
    .ok_or(InvalidArgument::rule("the task status has no taskId"))?;
    let (server, id, signal) = (journal.server.clone(), task_id.clone(), options.signal.clone());
    let body: Body = Box::new(move |after_other| {
        Box::pin(async move {
            if after_other {
                // The wait that held the task ended and its entry is gone: the task ended there. Its
                // outcome is read from the server, not journaled again (no handler runs: it is over).
                let left = journal.store.get(&key_of(&journal.server, &task_id)).await;
                if left.as_ref().is_ok_and(JsValue::is_undefined) {
                    let run = start::await_task(client, TaskRef::TaskId(task_id.clone()), options, None);
                    let ended = run.map_err(|m| m.rejection("awaitTask"))?.await?;
                    if let Outcome::Engine(o) = &ended {
                        told(&journal.server, Some(task_id), o);
                    }
                    return Ok(ended);
                }
            }
            let record = Record::new(journal);
            let status = match &task {
                TaskRef::Status(s) => Some(s.clone()),
                TaskRef::TaskId(_) => None,
            };
            record.open(&task_id, None, status, client.generation_and_session()).await;
            if let Some(f) = record.failure() {
                return Ok(Outcome::Engine(f));
            }
            let limit = Limit::new(options.timeout, options.signal.as_ref());
            let watched = Rc::new(JournaledClient::new(client, record.clone(), None));
            let mut options = await_options(&record, options);
            options.answered = record.answered_before();
            let stop = record.stop_signal();
            let run = start::await_task(watched, task, options, stop.as_ref()).map_err(|m| m.rejection("awaitTask"))?;
            settle(record, run, true, limit).await
        })
    });
    Ok(one_waiter(&server, &id, signal, body))
}

/// `start::call_and_await`, journaled in `journal`: the task is journaled when created (and its lock
/// held), its answers as they are given, and it is removed at a terminal outcome, which the other
/// waiters of the task hear. `Err`: the wait's options are wrong (nothing was sent).
pub(crate) fn call_and_await(
    client: Rc<dyn Client>,
    journal: Journal,
    name: &str,
    args: Option<JsValue>,
    call: CallOptions,
    wait: AwaitOptions,
) -> Result<CallFuture, InvalidArgument> {
    let record = Record::new(journal);
    let signal = wait.signal.clone().or_else(|| call.signal.clone());
    let both = [call.timeout, wait.timeout].map(|t| time_limits(t, None, None).deadline_ms);
    let whole = match both {
        [Some(c), Some(w)] => Duration::from_millis(c.saturating_add(w)),
        _ => NO_DEADLINE,
    };
    let limit = Limit::new(Some(whole), signal.as_ref());
    let watched = Rc::new(JournaledClient::new(client, record.clone(), Some(name.to_owned())));
    let (call, wait) = (call_options(&record, call), await_options(&record, wait));
    let run = start::call_and_await(watched, name, args, call, wait, record.stop_signal().as_ref())?;
    Ok(settle(record, run, true, limit))
}
