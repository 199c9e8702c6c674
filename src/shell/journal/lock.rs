//! One waiter per task across the tabs and workers of an origin: a journaled wait holds the task's
//! Web Lock (`navigator.locks`, named after server and task); another wait of the same task waits for
//! the lock and takes the holder's terminal outcome from a `BroadcastChannel` of the same name, or, if
//! the holder ended without one (or died), goes on itself once the lock is free. Without Web Locks a
//! wait just runs.
//!
//! web-sys has `LockManager` only under `--cfg=web_sys_unstable_apis` (which would break every user of
//! the crate that does not set it), so the one method needed is declared here.

use super::is_terminal;
use super::key::key_of;
use crate::engine::{AbortScope, Event, Outcome as EngineOutcome};
use crate::json::Json;
use crate::shell::end::{CallFuture, Outcome, Rejection};
use crate::shell::inbox::Inbox;
use crate::shell::interop::from_js::field;
use crate::shell::signals::Watch;
use crate::shell::signals::{is_aborted, reason_of, subscribe};
use js_sys::{Array, Function, Promise};
use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::rc::Rc;
use std::task::Poll;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{spawn_local, JsFuture};

#[wasm_bindgen]
extern "C" {
    /// A Web Locks lock manager (`navigator.locks`).
    type LockManager;
    /// `locks.request(name, options, callback)`: a promise of what `callback`'s promise resolves with
    /// (the lock is held until then); catching.
    #[wasm_bindgen(method, catch)]
    fn request(this: &LockManager, name: &str, options: &JsValue, callback: &Function) -> Result<Promise, JsValue>;
}

/// The prefix of the task's lock and channel names (and of the extension storage items).
const PREFIX: &str = "mcp-tasks-wasm:";

/// The lock and broadcast channel name of a task.
pub(crate) fn lock_name(server: &str, task_id: &str) -> String {
    [PREFIX, &key_of(server, task_id)].concat()
}

/// `navigator.locks`, where it has a `request` function.
fn locks() -> Option<LockManager> {
    let locks = field(&js_sys::global(), "navigator").and_then(|n| field(&n, "locks"))?;
    field(&locks, "request")?.is_function().then(|| locks.unchecked_into())
}

/// A held lock (or one requested): released when dropped.
pub(crate) struct Held(Function);

impl Drop for Held {
    fn drop(&mut self) {
        let _ = self.0.call0(&JsValue::UNDEFINED);
    }
}

/// A promise and its `resolve` function.
fn resolvable() -> (Promise, Function) {
    let mut resolve = JsValue::UNDEFINED;
    let promise = Promise::new(&mut |r, _| resolve = r.into());
    (promise, resolve.unchecked_into())
}

/// A lock request: `granted` settles with the lock (`null`: held elsewhere, with `ifAvailable`), or
/// rejects when the request failed first; once granted, the lock is held until `held` is dropped.
struct Request {
    granted: JsFuture,
    held: Held,
}

/// Requests the lock `name` with `options`; `Err`: what `request` threw.
fn request(locks: &LockManager, name: &str, options: &JsValue) -> Result<Request, JsValue> {
    let (held, release) = resolvable();
    let (called, call) = resolvable();
    let callback = Closure::once(move |lock: JsValue| -> JsValue {
        let _ = call.call1(&JsValue::UNDEFINED, &lock);
        if lock.is_null() || lock.is_undefined() {
            JsValue::UNDEFINED
        } else {
            held.into()
        }
    });
    let asked = locks.request(name, options, callback.as_ref().unchecked_ref())?;
    let granted = Promise::race(&Array::of2(&called, &asked));
    // The callback lives until the request settles (it has been called, or never will be).
    spawn_local(async move {
        let _ = JsFuture::from(asked).await;
        drop(callback);
    });
    Ok(Request { granted: JsFuture::from(granted), held: Held(release) })
}

/// `{ifAvailable: true}`.
fn if_available() -> JsValue {
    JsValue::object(vec![("ifAvailable", JsValue::TRUE)])
}

/// Takes the task's lock if it is free (not waiting for it), holding it until the guard is dropped;
/// `None` without Web Locks.
pub(crate) fn hold(server: &str, task_id: &str) -> Option<Held> {
    request(&locks()?, &lock_name(server, task_id), &if_available()).ok().map(|r| r.held)
}

/// Tells `outcome` to the other waiters of the task `task_id` of `server` when it is terminal, as its
/// tagged outcome object (one that cannot be cloned is not sent: the others read the task themselves).
pub(crate) fn told(server: &str, task_id: Option<String>, outcome: &EngineOutcome<JsValue>) {
    let Some(task_id) = task_id.filter(|_| is_terminal(outcome)) else { return };
    if let Ok(bc) = web_sys::BroadcastChannel::new(&lock_name(server, &task_id)) {
        let _ = bc.post_message(&outcome.to_json());
        bc.close();
    }
}

/// What [`one_waiter`] runs: the wait, told whether another waiter held the task before (it tells the
/// others its terminal outcome itself: [`told`]).
pub(crate) type Body = Box<dyn FnOnce(bool) -> CallFuture>;

/// Runs `body(after_other)` as the one waiter of the task across this origin: under its Web Lock.
/// When another wait holds it, waits for that one's terminal outcome or for the lock, whichever comes
/// first (`after_other` is then true), or for `signal`'s abort (the rejection). Without Web Locks, runs
/// `body(false)`.
pub(crate) fn one_waiter(server: &str, task_id: &str, signal: Option<web_sys::AbortSignal>, body: Body) -> CallFuture {
    let Some(locks) = locks() else { return body(false) };
    let name = lock_name(server, task_id);
    Box::pin(async move {
        let Request { granted, held } = request(&locks, &name, &if_available()).map_err(Rejection::Thrown)?;
        let lock = granted.await.map_err(Rejection::Thrown)?;
        if !lock.is_null() && !lock.is_undefined() {
            let out = body(false).await;
            drop(held);
            return out;
        }
        drop(held);
        let signal: Option<JsValue> = signal.map(Into::into);
        if let Some(s) = signal.as_ref().filter(|s| is_aborted(s)) {
            return Err(Rejection::Aborted(reason_of(s)));
        }
        // Held elsewhere: the holder's outcome, the lock, or the caller's abort.
        let bc = web_sys::BroadcastChannel::new(&name).ok();
        let (heard, hear) = resolvable();
        if let Some(bc) = &bc {
            bc.set_onmessage(Some(&hear));
        }
        let quit = web_sys::AbortController::new().ok();
        let options = JsValue::object(quit.iter().map(|q| ("signal", q.signal().into())).collect());
        let turn = request(&locks, &name, &options);
        let inbox = Rc::new(Inbox::default());
        let _watching = signal.as_ref().and_then(|s| subscribe(s, &inbox, Watch::Abort(AbortScope::All)));
        let out = match turn {
            Err(e) => Err(Rejection::Thrown(e)),
            Ok(turn) => {
                let mut heard = JsFuture::from(heard);
                let mut granted = Some(turn.granted);
                let mut body = Some(body);
                let mut running: Option<CallFuture> = None;
                let out = poll_fn(|cx| {
                    if let Poll::Ready(event) = Pin::new(&mut heard).poll(cx) {
                        let data = field(&event.unwrap_or_default(), "data").unwrap_or_default();
                        return Poll::Ready(Ok(Outcome::Told(data)));
                    }
                    if let Poll::Ready(Event::Abort { reason, .. }) = inbox.poll_next(cx) {
                        return Poll::Ready(Err(Rejection::Aborted(reason)));
                    }
                    if let Some(g) = granted.as_mut() {
                        match Pin::new(g).poll(cx) {
                            Poll::Pending => {}
                            Poll::Ready(Err(e)) => return Poll::Ready(Err(Rejection::Thrown(e))),
                            Poll::Ready(Ok(_)) => {
                                granted = None;
                                running = body.take().map(|b| b(true));
                            }
                        }
                    }
                    match running.as_mut().map(|r| r.as_mut().poll(cx)) {
                        Some(ready @ Poll::Ready(_)) => ready,
                        _ => Poll::Pending,
                    }
                })
                .await;
                drop(running);
                drop(turn.held);
                out
            }
        };
        if let Some(q) = &quit {
            q.abort();
        }
        if let Some(bc) = &bc {
            bc.close();
        }
        out
    })
}
