//! One timer for the whole module. Every run (and every detached request's bound) asks to be woken at
//! a time; only the earliest is armed, as one gloo-timers `Timeout`. Entries of runs that ended are
//! dropped when they reach the top, so an idle module holds no timer (and a Node process can exit).

use super::driver::{self, Target};
use super::rt::performance_now;
use crate::engine::Millis;
use gloo_timers::callback::Timeout;
use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The longest delay `setTimeout` takes; longer waits re-arm.
const MAX_TIMER_MS: u64 = i32::MAX as u64;

#[derive(Default)]
struct Sched {
    heap: BinaryHeap<Reverse<(Millis, Target)>>,
    armed: Option<(Millis, Timeout)>,
}

thread_local! {
    static SCHED: RefCell<Sched> = RefCell::new(Sched::default());
}

/// Milliseconds on the monotonic clock.
pub fn now() -> Millis {
    performance_now().max(0.0).floor() as Millis
}

/// Wakes `target` at `at` (or soon after).
pub fn wake(at: Millis, target: Target) {
    SCHED.with(|s| s.borrow_mut().heap.push(Reverse((at, target))));
    arm();
}

/// `true` while the module's timer is armed.
pub fn armed() -> bool {
    SCHED.with(|s| s.borrow().armed.is_some())
}

/// Arms the timer for the earliest entry of a live target (or disarms it when there is none).
pub fn arm() {
    loop {
        let top = SCHED.with(|s| s.borrow().heap.peek().map(|Reverse(e)| *e));
        match top {
            Some((_, target)) if !driver::is_live(target) => {
                SCHED.with(|s| s.borrow_mut().heap.pop());
            }
            Some((at, _)) => {
                let current = SCHED.with(|s| s.borrow().armed.as_ref().map(|(t, _)| *t));
                if current != Some(at) {
                    let delay = at.saturating_sub(now()).min(MAX_TIMER_MS) as u32;
                    let timer = Timeout::new(delay, fire);
                    // Replacing the old timeout drops (clears) it.
                    SCHED.with(|s| s.borrow_mut().armed = Some((at, timer)));
                }
                return;
            }
            None => {
                let old = SCHED.with(|s| s.borrow_mut().armed.take());
                drop(old);
                return;
            }
        }
    }
}

/// The timer fired: wakes every due target (outside any borrow), then re-arms.
fn fire() {
    let now = now();
    let mut due = Vec::new();
    SCHED.with(|s| {
        let mut s = s.borrow_mut();
        s.armed = None;
        while let Some(Reverse((at, target))) = s.heap.peek().copied() {
            if at > now {
                break;
            }
            s.heap.pop();
            due.push((at, target));
        }
    });
    for (at, target) in due {
        driver::woken(target, at);
    }
    arm();
}
