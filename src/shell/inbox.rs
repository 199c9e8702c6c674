//! A run's inbox: the events pushed to it from outside its poll (abort listeners) and by the driver
//! itself, and the waker of the run waiting for them.

use crate::engine::Event;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::task::{Context, Poll, Waker};
use wasm_bindgen::JsValue;

/// Events pushed to a run from outside its poll (abort listeners), and by the driver itself.
#[derive(Default)]
pub(crate) struct Inbox {
    events: RefCell<VecDeque<Event<JsValue>>>,
    waker: RefCell<Option<Waker>>,
}

impl Inbox {
    /// Queues `event` and wakes the run.
    pub(crate) fn push(&self, event: Event<JsValue>) {
        self.events.borrow_mut().push_back(event);
        let waker = self.waker.borrow_mut().take();
        if let Some(w) = waker {
            w.wake();
        }
    }

    /// The next event pushed: `Pending` until there is one (the push wakes `cx`).
    pub(crate) fn poll_next(&self, cx: &mut Context<'_>) -> Poll<Event<JsValue>> {
        match self.pop() {
            Some(e) => Poll::Ready(e),
            None => {
                *self.waker.borrow_mut() = Some(cx.waker().clone());
                Poll::Pending
            }
        }
    }

    fn pop(&self) -> Option<Event<JsValue>> {
        let mut events = self.events.borrow_mut();
        let e = events.pop_front();
        if events.is_empty() && events.capacity() > 0 {
            *events = VecDeque::new(); // an idle run keeps no buffers (memory per wait)
        }
        e
    }
}
