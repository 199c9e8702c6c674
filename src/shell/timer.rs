//! The module's one timer: every wait, request bound and backoff sleeps on it. A binary heap of wake
//! times under one gloo-timers [`Timeout`], armed for the earliest sleeper still alive; an idle module
//! arms none (so a Node process can exit). A [`Sleep`] dropped before its time is forgotten when it
//! reaches the top of the heap, or sooner: once the dropped ones are half as many as the live ones,
//! the heap is swept (a wait re-arms on every request, so its dropped sleeps would otherwise pile up,
//! each holding its alarm, until their times came; the heap's buffer, which never shrinks, stays
//! within about 1.5 entries per live sleeper: memory per wait).
//!
//! Delays longer than `setTimeout` takes (about 24.8 days) are armed in steps: the timer fires early,
//! finds nothing due, and re-arms.

use super::clock::now;
use crate::engine::Millis;
use gloo_timers::callback::Timeout;
use std::cell::{Cell, RefCell};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::future::Future;
use std::pin::Pin;
use std::rc::{Rc, Weak};
use std::task::{Context, Poll, Waker};

/// The longest delay `setTimeout` takes.
const MAX_TIMER_MS: u64 = 2_147_483_647;

/// One sleeper: its wake time and the waker of the task that awaits it.
struct Alarm {
    at: Millis,
    /// Only the timer's firing ends it (a sleep until the host's next turn), not the clock alone.
    turn: bool,
    fired: Cell<bool>,
    waker: RefCell<Option<Waker>>,
}

/// A heap entry: the wake time, a sequence number (ties in arrival order) and the sleeper.
struct Entry(Millis, u64, Weak<Alarm>);

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        (self.0, self.1) == (other.0, other.1)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Entry {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (self.0, self.1).cmp(&(other.0, other.1))
    }
}

struct Scheduler {
    heap: BinaryHeap<Reverse<Entry>>,
    /// How many entries of the heap are dead (their sleep was dropped before its time).
    dead: usize,
    next_seq: u64,
    /// The armed timer and the time it was armed for.
    armed: Option<(Millis, Timeout)>,
}

thread_local! {
    /// Built in place (a `const` initializer: no lazy initialization code in the module).
    static SCHEDULER: RefCell<Scheduler> =
        const { RefCell::new(Scheduler { heap: BinaryHeap::new(), dead: 0, next_seq: 0, armed: None }) };
    /// The answer owed to a [`ping`], given the next time the timer fires.
    static PINGED: Cell<Option<fn()>> = const { Cell::new(None) };
}

/// Asks the timer for a sign of life (the registry's, `bind/registry.js`): it fires as soon as the
/// host lets it (0 ms) and calls `answer` first thing, before its sleepers, however many are due.
/// With the timer's state left borrowed by a trap, this call traps too.
#[cfg(feature = "js")]
pub(crate) fn ping(answer: fn()) {
    PINGED.with(|p| p.set(Some(answer)));
    arm();
}

/// A future that is ready at `at` on the module's clock (see [`sleep_until`]).
pub(crate) struct Sleep {
    alarm: Option<Rc<Alarm>>,
    at: Millis,
}

/// Sleeps until `at` (milliseconds on [`now`]'s clock) on the module's one timer.
pub(crate) fn sleep_until(at: Millis) -> Sleep {
    sleep(at, false)
}

/// Sleeps until the host's next turn: the module's timer firing (a macrotask), at once or later.
pub(crate) fn next_turn() -> Sleep {
    sleep(now(), true)
}

fn sleep(at: Millis, turn: bool) -> Sleep {
    let alarm = Rc::new(Alarm { at, turn, fired: Cell::new(false), waker: RefCell::new(None) });
    SCHEDULER.with(|s| {
        let mut s = s.borrow_mut();
        s.next_seq += 1;
        let seq = s.next_seq;
        s.heap.push(Reverse(Entry(at, seq, Rc::downgrade(&alarm))));
    });
    arm();
    Sleep { alarm: Some(alarm), at }
}

impl Sleep {
    /// The time this sleep ends.
    pub(crate) fn at(&self) -> Millis {
        self.at
    }
}

impl Future for Sleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let Some(alarm) = &self.alarm else { return Poll::Ready(()) };
        if alarm.fired.get() || (!alarm.turn && now() >= alarm.at) {
            return Poll::Ready(());
        }
        *alarm.waker.borrow_mut() = Some(cx.waker().clone());
        Poll::Pending
    }
}

/// The most sleepers one firing of the timer wakes (see [`fire`]).
const WAKES_PER_TURN: usize = 256;

/// Fewer dead entries than this are never swept (sweeping a small heap gains nothing).
const SWEEP_MIN_DEAD: usize = 16;

impl Drop for Sleep {
    fn drop(&mut self) {
        // Its heap entry is dead once the alarm is gone (an alarm that fired has left the heap); when the
        // timer was armed for it, re-arm for the next live sleeper (or disarm).
        let Some(alarm) = self.alarm.take() else { return };
        let in_heap = !alarm.fired.get();
        drop(alarm);
        let armed_for_it = SCHEDULER.with(|cell| {
            let mut s = cell.borrow_mut();
            if in_heap {
                s.dead += 1;
                if s.dead >= SWEEP_MIN_DEAD && s.dead * 3 > s.heap.len() {
                    // Re-pushing the live entries (rather than `BinaryHeap::retain`, whose rebuild is
                    // code of its own: 0.5 KB gzip) keeps one sift in the module.
                    for entry in std::mem::take(&mut s.heap).into_vec() {
                        if entry.0 .2.strong_count() > 0 {
                            s.heap.push(entry);
                        }
                    }
                    s.dead = 0;
                }
            }
            s.armed.as_ref().is_some_and(|(at, _)| *at == self.at)
        });
        if armed_for_it {
            arm();
        }
    }
}

/// Arms the timer for the earliest live sleeper, or disarms it when there is none.
fn arm() {
    SCHEDULER.with(|cell| {
        let mut s = cell.borrow_mut();
        while s.heap.peek().is_some_and(|Reverse(e)| e.2.strong_count() == 0) {
            s.heap.pop();
            s.dead = s.dead.saturating_sub(1);
        }
        // A ping is owed: fire at once.
        let earliest = if PINGED.with(Cell::get).is_some() { Some(0) } else { s.heap.peek().map(|Reverse(e)| e.0) };
        if s.armed.as_ref().map(|(at, _)| *at) == earliest {
            return;
        }
        // Dropping the old Timeout clears it.
        let old = s.armed.take();
        if let Some(at) = earliest {
            let delay = at.saturating_sub(now()).min(MAX_TIMER_MS) as u32;
            s.armed = Some((at, Timeout::new(delay, fire)));
        }
        drop(s);
        drop(old);
    });
}

#[cfg(feature = "trap-test")]
thread_local! {
    /// Test builds only: when the timer traps (see [`trap_in`]).
    static TRAP_AT: std::cell::Cell<Millis> = const { std::cell::Cell::new(Millis::MAX) };
}

/// Test builds only: the timer's callback traps `delay_ms` from now, with the scheduler borrowed (so
/// every sleeper of the module dies with it). A sleep is armed for that time (and leaked) to get there.
#[cfg(feature = "trap-test")]
pub(crate) fn trap_in(delay_ms: u32) {
    let at = now() + u64::from(delay_ms);
    TRAP_AT.with(|t| t.set(at));
    std::mem::forget(sleep_until(at));
}

/// The timer fired: wakes every due sleeper, then re-arms. The host is running one of its tasks: the
/// module's slice of work begins anew.
fn fire() {
    if let Some(answer) = PINGED.with(Cell::take) {
        answer();
    }
    super::slice::reset();
    let t = now();
    let mut due = Vec::new();
    let spent = SCHEDULER.with(|cell| {
        let mut s = cell.borrow_mut();
        #[cfg(feature = "trap-test")]
        if TRAP_AT.with(std::cell::Cell::get) <= t {
            core::arch::wasm32::unreachable();
        }
        // At most WAKES_PER_TURN sleepers per turn (earliest first): thousands due at once — waits timing
        // out together, runs paused for the next turn — are woken a batch per turn of the host's task
        // queue, so a turn's work stays small (the timer re-arms at once for the rest).
        while due.len() < WAKES_PER_TURN && s.heap.peek().is_some_and(|Reverse(e)| e.0 <= t) {
            if let Some(Reverse(e)) = s.heap.pop() {
                if e.2.strong_count() == 0 {
                    s.dead = s.dead.saturating_sub(1);
                } else {
                    due.push(e.2);
                }
            }
        }
        // The Timeout that called us is spent (dropping it clears nothing; wasm-bindgen frees its
        // closure once this call returns).
        s.armed.take()
    });
    drop(spent);
    for alarm in due.iter().filter_map(Weak::upgrade) {
        alarm.fired.set(true);
        if let Some(w) = alarm.waker.borrow_mut().take() {
            w.wake();
        }
    }
    arm();
}

/// `1` while the timer is armed, else `0` (for `liveCounts()`; `0` when its state cannot be read — only
/// after a trap left it borrowed).
pub(crate) fn armed_count() -> u32 {
    SCHEDULER.with(|s| s.try_borrow().map_or(0, |s| u32::from(s.armed.is_some())))
}
