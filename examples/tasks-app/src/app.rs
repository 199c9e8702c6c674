//! The app: one [`HttpClient`] to the page's MCP endpoint, one run at a time. A run is
//! `call_and_await` with its statuses shown as they change (`on_status`) and the form handler; the
//! Cancel button aborts the run's `cancel_signal`: the library sends `tasks/cancel` and the wait ends
//! with the server's `cancelled` status (a Cancel button in one step).

use crate::form::form_handler;
use crate::outcome::summary;
use crate::ui::Page;
use mcp_tasks_wasm::{
    call_and_await, on_status, AwaitOptions, CallOptions, Error, Handlers, HttpClient, TaskStatus, WaitOutcome,
};
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};
use std::time::Duration;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;

/// How long a run waits at most: long enough for a person to fill a form.
const WAIT: Duration = Duration::from_secs(10 * 60);

/// The app's state.
pub struct App {
    /// The page's elements.
    page: Page,
    /// The client of the MCP endpoint.
    client: HttpClient,
    /// The running run's Cancel: aborting it cancels the task (`AwaitOptions::cancel_signal`).
    cancel: RefCell<Option<web_sys::AbortController>>,
    /// Whether a run is in progress.
    running: Cell<bool>,
    /// Whether Cancel was clicked during this run (it stays off then).
    cancelling: Cell<bool>,
}

/// The MCP endpoint: the page's `?server=` parameter, else `/mcp` on the page's origin.
fn endpoint() -> Result<String, JsValue> {
    let location = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?.location();
    let query = web_sys::UrlSearchParams::new_with_str(&location.search()?)?;
    Ok(query.get("server").unwrap_or(location.origin()? + "/mcp"))
}

impl App {
    /// Finds the page's elements, makes the client and wires the buttons.
    pub fn boot() -> Result<(), JsValue> {
        let page = Page::find()?;
        let url = endpoint()?;
        page.server.set_text_content(Some(&url));
        let client = HttpClient::new(&url)?;
        let app = Rc::new(Self {
            page,
            client,
            cancel: RefCell::new(None),
            running: Cell::new(false),
            cancelling: Cell::new(false),
        });
        for button in &app.page.starts {
            let tool = button.get_attribute("data-tool").unwrap_or_default();
            let this = Rc::clone(&app);
            on_click(button, move || this.start(&tool))?;
        }
        let this = Rc::clone(&app);
        on_click(&app.page.cancel, move || this.cancel())?;
        app.page.set_running(false);
        Ok(())
    }

    /// The arguments of `tool`, from the page's fields.
    fn arguments(&self, tool: &str) -> Value {
        match tool {
            "slow" => {
                let ms = self.page.slow_ms.value_as_number();
                json!({ "ms": if ms.is_finite() && ms >= 0.0 { ms as u64 } else { 1500 } })
            }
            _ => json!({}),
        }
    }

    /// Starts `tool` (unless a run is in progress) and shows its outcome when it ends.
    fn start(self: &Rc<Self>, tool: &str) {
        if self.running.replace(true) {
            return;
        }
        self.cancelling.set(false);
        self.page.clear();
        self.page.set_running(true);
        let this = Rc::clone(self);
        let tool = tool.to_owned();
        spawn_local(async move {
            let end = this.run(&tool).await;
            let (tag, text) = summary(&end);
            this.page.input.set_text_content(None);
            this.page.show_outcome(tag, &text);
            this.cancel.replace(None);
            this.running.replace(false);
            this.page.set_running(false);
        });
    }

    /// Calls `tool` and waits for its task, showing each status and answering forms in the page.
    async fn run(self: &Rc<Self>, tool: &str) -> Result<WaitOutcome, Error> {
        // A weak reference: the closure lives in the wait's options, which the app outlives.
        let this: Weak<Self> = Rc::downgrade(self);
        let cancel = web_sys::AbortController::new().map_err(Error::Callback)?;
        let cancel_signal = Some(cancel.signal());
        self.cancel.replace(Some(cancel));
        let wait = AwaitOptions {
            cancel_signal,
            timeout: Some(WAIT),
            on_status: Some(on_status(move |status| {
                if let Some(app) = this.upgrade() {
                    app.status(status);
                }
            })),
            input_handlers: Some(Handlers { form: Some(form_handler(self.page.input.clone())), ..Handlers::default() }),
            ..AwaitOptions::default()
        };
        call_and_await(&self.client, tool, &self.arguments(tool), CallOptions::default(), wait).await
    }

    /// A new status: allow Cancel while the task runs, show it.
    fn status(&self, status: &TaskStatus) {
        self.page.set_cancellable(!status.state.is_terminal() && !self.cancelling.get());
        if let Err(e) = self.page.add_status(status) {
            web_sys::console::error_2(&JsValue::from_str("could not show a status:"), &e);
        }
    }

    /// The Cancel button: aborts the run's `cancel_signal` — the library sends `tasks/cancel` and the
    /// wait goes on to the server's `cancelled` status (or `completed`/`failed`, when the task finished
    /// first).
    fn cancel(self: &Rc<Self>) {
        let Some(cancel) = self.cancel.borrow().clone() else { return };
        self.cancelling.set(true);
        self.page.set_cancellable(false);
        self.page.note("cancelling…");
        cancel.abort();
    }
}

/// Calls `f` on each click of `button`, for the page's lifetime (the closure is never dropped).
fn on_click(button: &web_sys::HtmlButtonElement, f: impl Fn() + 'static) -> Result<(), JsValue> {
    let closure = Closure::<dyn Fn()>::new(f);
    button.add_event_listener_with_callback("click", closure.as_ref().unchecked_ref())?;
    closure.forget();
    Ok(())
}
