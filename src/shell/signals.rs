//! The caller's abort signals. Waits that share one `AbortSignal` share one `abort` listener on it,
//! added when the first of them starts and removed when the last of them ends (more than ten listeners
//! on one signal make Node warn of a leak). A `WeakMap` finds a signal's entry without holding the
//! signal alive; the listener tells every wait subscribed, each as it [`Watch`]es the signal: an abort
//! of a part of its call, or a cancel asked.

use super::inbox::Inbox;
use super::interop::from_js::field;
use crate::engine::{AbortScope, Event};

/// How a run watches a signal: as an abort of a part of its call (`signal`, and the journal's stop),
/// or as a cancel asked (`cancelSignal`: not an abort — the wait goes on to the task's end).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Watch {
    /// Its abort stops this part of the call.
    Abort(AbortScope),
    /// Its abort asks for the task to be cancelled.
    Cancel,
}

impl Watch {
    /// The event the signal's abort (with `reason`) is for the run.
    pub(crate) fn event(self, reason: JsValue) -> Event<JsValue> {
        match self {
            Watch::Abort(scope) => Event::Abort { reason, scope },
            Watch::Cancel => Event::Cancel,
        }
    }
}
use js_sys::{Function, WeakMap};
use std::cell::RefCell;
use std::rc::{Rc, Weak};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// One watched signal: the listener on it and the waits it tells.
struct Watched {
    signal: JsValue,
    listener: Closure<dyn FnMut()>,
    subscribers: Vec<(u32, Weak<Inbox>, Watch)>,
}

struct Registry {
    slots: Vec<Option<Watched>>,
    free: Vec<u32>,
    next_id: u32,
    /// Signal → its slot (a number).
    by_signal: Option<WeakMap>,
}

thread_local! {
    /// Built in place (a `const` initializer: no lazy initialization code in the module).
    static REGISTRY: RefCell<Registry> =
        const { RefCell::new(Registry { slots: Vec::new(), free: Vec::new(), next_id: 0, by_signal: None }) };
}

/// A wait's subscription to a signal; dropping it unsubscribes (and removes the listener when it was
/// the last one).
pub(crate) struct Subscription {
    slot: u32,
    id: u32,
}

/// `signal.aborted === true` (false when unreadable).
pub(crate) fn is_aborted(signal: &JsValue) -> bool {
    field(signal, "aborted").and_then(|v| v.as_bool()) == Some(true)
}

/// `signal.reason` (undefined when unreadable).
pub(crate) fn reason_of(signal: &JsValue) -> JsValue {
    field(signal, "reason").unwrap_or(JsValue::UNDEFINED)
}

/// Subscribes `inbox` to the abort of `signal`, watched as `watch`. `None` when the signal cannot be
/// watched (its `addEventListener` throws).
pub(crate) fn subscribe(signal: &JsValue, inbox: &Rc<Inbox>, watch: Watch) -> Option<Subscription> {
    let subscriber = |id| (id, Rc::downgrade(inbox), watch);
    // A signal already watched: one more subscriber. Else a slot is reserved for it.
    let (slot, id, map) = REGISTRY.with(|cell| {
        let mut r = cell.borrow_mut();
        r.next_id = r.next_id.wrapping_add(1);
        let id = r.next_id;
        let map = r.by_signal.get_or_insert_with(WeakMap::new).clone();
        if let Some(slot) = map.get(signal.unchecked_ref()).as_f64().map(|n| n as u32) {
            if let Some(Some(w)) = r.slots.get_mut(slot as usize) {
                w.subscribers.push(subscriber(id));
                return (slot, id, None);
            }
        }
        let slot = match r.free.pop() {
            Some(slot) => slot,
            None => {
                r.slots.push(None);
                (r.slots.len() - 1) as u32
            }
        };
        (slot, id, Some(map))
    });
    let Some(map) = map else { return Some(Subscription { slot, id }) };
    // Outside the borrow: a duck-typed signal's addEventListener is application code.
    let listener = Closure::<dyn FnMut()>::new(move || fire(slot));
    let added = add_listener(signal, listener.as_ref().unchecked_ref());
    REGISTRY.with(|cell| {
        let mut r = cell.borrow_mut();
        if !added {
            r.free.push(slot);
            return None;
        }
        let watched = Watched { signal: signal.clone(), listener, subscribers: vec![subscriber(id)] };
        if let Some(s) = r.slots.get_mut(slot as usize) {
            *s = Some(watched);
        }
        map.set(signal.unchecked_ref(), &JsValue::from_f64(f64::from(slot)));
        Some(Subscription { slot, id })
    })
}

fn add_listener(signal: &JsValue, f: &Function) -> bool {
    signal.unchecked_ref::<web_sys::EventTarget>().add_event_listener_with_callback("abort", f).is_ok()
}

/// The signal of `slot` fired: every wait subscribed gets the abort, with the signal's reason.
fn fire(slot: u32) {
    let taken = REGISTRY.with(|cell| {
        let r = cell.borrow();
        r.slots.get(slot as usize).and_then(Option::as_ref).map(|w| (w.signal.clone(), w.subscribers.clone()))
    });
    let Some((signal, subscribers)) = taken else { return };
    let reason = reason_of(&signal);
    for (_, inbox, watch) in subscribers {
        if let Some(inbox) = inbox.upgrade() {
            inbox.push(watch.event(reason.clone()));
        }
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let emptied = REGISTRY.with(|cell| {
            let mut r = cell.borrow_mut();
            let Some(Some(w)) = r.slots.get_mut(self.slot as usize) else { return None };
            w.subscribers.retain(|(id, _, _)| *id != self.id);
            if !w.subscribers.is_empty() {
                return None;
            }
            let w = r.slots.get_mut(self.slot as usize).and_then(Option::take)?;
            r.free.push(self.slot);
            if let Some(map) = &r.by_signal {
                map.delete(w.signal.unchecked_ref());
            }
            Some(w)
        });
        // Outside the borrow: removing the listener runs no application code, but a duck-typed signal's
        // removeEventListener might.
        if let Some(w) = emptied {
            let _ = w
                .signal
                .unchecked_ref::<web_sys::EventTarget>()
                .remove_event_listener_with_callback("abort", w.listener.as_ref().unchecked_ref());
        }
    }
}
