//! The page's DOM through web-sys: the elements `index.html` declares, new elements, and what the
//! app shows in them (the statuses as they change, the final outcome, errors).

use mcp_tasks_wasm::TaskStatus;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, HtmlButtonElement, HtmlInputElement};

/// The window's document.
pub fn document() -> Result<Document, JsValue> {
    web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsValue::from_str("no window.document"))
}

/// The element with id `id` in `doc`, as a `T`.
pub fn by_id<T: JsCast>(doc: &Document, id: &str) -> Result<T, JsValue> {
    doc.get_element_by_id(id)
        .and_then(|e| e.dyn_into::<T>().ok())
        .ok_or_else(|| JsValue::from_str(&format!("the page has no #{id} of the expected kind")))
}

/// A new `tag` element with `text` (none when empty).
pub fn element(doc: &Document, tag: &str, text: &str) -> Result<Element, JsValue> {
    let e = doc.create_element(tag)?;
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    Ok(e)
}

/// What a JS value thrown or rejected with says: an `Error`'s `name: message`, else its string.
pub fn describe(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return format!("{}: {}", String::from(error.name()), String::from(error.message()));
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

/// The elements of the page the app reads and writes (declared in `index.html`).
pub struct Page {
    /// The document.
    pub doc: Document,
    /// Shows which MCP endpoint the app talks to.
    pub server: Element,
    /// The `ms` argument of `slow`.
    pub slow_ms: HtmlInputElement,
    /// The start buttons, each with its tool's name in `data-tool`.
    pub starts: Vec<HtmlButtonElement>,
    /// The Cancel button: enabled while a task is running.
    pub cancel: HtmlButtonElement,
    /// The task's id.
    pub task: Element,
    /// The list of statuses, one item per status change.
    pub statuses: Element,
    /// Where the input form appears.
    pub input: Element,
    /// The final outcome (`data-outcome` = its tag).
    pub outcome: Element,
}

impl Page {
    /// Finds the page's elements.
    pub fn find() -> Result<Self, JsValue> {
        let doc = document()?;
        let starts = ["slow", "ask", "forever"]
            .iter()
            .map(|tool| by_id::<HtmlButtonElement>(&doc, &format!("start-{tool}")))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            server: by_id(&doc, "server")?,
            slow_ms: by_id(&doc, "slow-ms")?,
            starts,
            cancel: by_id(&doc, "cancel")?,
            task: by_id(&doc, "task")?,
            statuses: by_id(&doc, "statuses")?,
            input: by_id(&doc, "input")?,
            outcome: by_id(&doc, "outcome")?,
            doc,
        })
    }

    /// Clears the last run's task, statuses, form and outcome.
    pub fn clear(&self) {
        self.task.set_text_content(Some("(starting…)"));
        self.statuses.set_text_content(None);
        self.input.set_text_content(None);
        self.outcome.set_text_content(None);
        let _ = self.outcome.remove_attribute("data-outcome");
    }

    /// Enables the start buttons when idle; the Cancel button stays off until a task exists.
    pub fn set_running(&self, running: bool) {
        for button in &self.starts {
            button.set_disabled(running);
        }
        if !running {
            self.set_cancellable(false);
        }
    }

    /// Enables or disables the Cancel button.
    pub fn set_cancellable(&self, on: bool) {
        self.cancel.set_disabled(!on);
    }

    /// Appends one status to the list: its state and its message.
    pub fn add_status(&self, status: &TaskStatus) -> Result<(), JsValue> {
        self.task.set_text_content(Some(&status.task_id));
        let state = status.state.as_str();
        let text = match &status.status_message {
            Some(message) => format!("{state} — {message}"),
            None => state.to_owned(),
        };
        let item = element(&self.doc, "li", &text)?;
        item.set_attribute("data-state", state)?;
        self.statuses.append_child(&item)?;
        Ok(())
    }

    /// Adds a note under the statuses (e.g. what Cancel did).
    pub fn note(&self, text: &str) {
        match element(&self.doc, "li", text) {
            Ok(item) => {
                let _ = item.set_attribute("class", "note");
                let _ = self.statuses.append_child(&item);
            }
            Err(e) => web_sys::console::error_2(&JsValue::from_str(text), &e),
        }
    }

    /// Shows the final outcome: `tag` (`ok`, `cancelled`, `error`, …) and its text.
    pub fn show_outcome(&self, tag: &str, text: &str) {
        self.outcome.set_text_content(Some(text));
        let _ = self.outcome.set_attribute("data-outcome", tag);
    }
}

/// Shows that the app could not start (the page lacks an element, no `window`, …): in the page when
/// there is a body, and in the console.
pub fn boot_failed(error: &JsValue) {
    web_sys::console::error_2(&JsValue::from_str("tasks-app could not start:"), error);
    let Ok(doc) = document() else { return };
    let Some(body) = doc.body() else { return };
    if let Ok(p) = element(&doc, "p", &format!("The app could not start: {}", describe(error))) {
        let _ = p.set_attribute("data-outcome", "error");
        let _ = body.append_child(&p);
    }
}
