//! [`CancelHandle`]: a Cancel button for a wait, in Rust — no `web_sys` in the app, nothing to unwrap.

/// A Cancel button: give its [`signal`](Self::signal) to [`AwaitOptions::cancel_signal`](crate::AwaitOptions::cancel_signal)
/// and [`cancel`](Self::cancel) sends `tasks/cancel` (the wait goes on to the server's answer,
/// usually [`WaitOutcome::Cancelled`](crate::WaitOutcome::Cancelled)); given to an options' `signal`
/// instead, cancelling ends the call at once ([`Error::Aborted`](crate::Error::Aborted)). Clones share
/// one button; [`guard`](Self::guard) cancels when it is dropped (a component's cleanup, a struct
/// that owns the wait). Cancelling twice is cancelling once.
///
/// ```no_run
/// use mcp_tasks_wasm::{call_and_await, AwaitOptions, CallOptions, CancelHandle, HttpClient, WaitOutcome};
/// # async fn run() -> Result<(), mcp_tasks_wasm::Error> {
/// let client = HttpClient::new("http://127.0.0.1:8787/mcp")?;
/// let cancel = CancelHandle::new();
/// let button = cancel.clone(); // e.g. moved into the Cancel button's click handler: `button.cancel()`
/// let wait = AwaitOptions { cancel_signal: cancel.signal(), ..AwaitOptions::default() };
/// if let WaitOutcome::Cancelled(status) = call_and_await(&client, "slow", &(), CallOptions::default(), wait).await? {
///     web_sys::console::log_1(&status.task_id.as_str().into());
/// }
/// # drop(button); Ok(()) }
/// ```
#[derive(Clone, Debug, Default)]
pub struct CancelHandle {
    /// `None` only where the host has no `AbortController` (then nothing can be cancelled).
    controller: Option<web_sys::AbortController>,
}

impl CancelHandle {
    /// A new button, not cancelled.
    pub fn new() -> Self {
        Self { controller: web_sys::AbortController::new().ok() }
    }

    /// Cancels: the signal aborts (once; later calls do nothing).
    pub fn cancel(&self) {
        if let Some(c) = &self.controller {
            c.abort();
        }
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.controller.as_ref().is_some_and(|c| c.signal().aborted())
    }

    /// The signal to give a wait (`cancel_signal`, or `signal` to end the call at once).
    pub fn signal(&self) -> Option<web_sys::AbortSignal> {
        self.controller.as_ref().map(web_sys::AbortController::signal)
    }

    /// A guard that cancels this button when it is dropped.
    ///
    /// ```no_run
    /// # let cancel = mcp_tasks_wasm::CancelHandle::new();
    /// let guard = cancel.guard(); // kept as long as the wait should run
    /// drop(guard); // e.g. the component unmounted: tasks/cancel goes out
    /// assert!(cancel.is_cancelled());
    /// ```
    pub fn guard(&self) -> CancelGuard {
        CancelGuard(self.clone())
    }
}

/// Cancels its [`CancelHandle`] when dropped ([`CancelHandle::guard`]).
#[derive(Debug)]
#[must_use = "dropping the guard cancels at once"]
pub struct CancelGuard(CancelHandle);

impl Drop for CancelGuard {
    fn drop(&mut self) {
        self.0.cancel();
    }
}
