//! A tool's result ([`ToolResult`], its [`Content`] blocks) and the input a call needs
//! ([`InputRequired`]): the values the outcomes and [`Error`](crate::Error) carry, as the very JS values
//! that arrived (what deserializes them is in `super::outcome`, beside the outcomes).

use super::status::{input_requests, InputRequest, TaskStatus};
use crate::json::Json;
use wasm_bindgen::JsValue;

/// A tool's result (a `CallToolResult`), the very JS value the client's `request` resolved with.
///
/// ```no_run
/// use mcp_tasks_wasm::Content;
/// #[derive(serde::Deserialize)]
/// struct Weather { celsius: f64 }
/// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), mcp_tasks_wasm::Error> {
/// let text: String = result.text(); // the text blocks, joined with "\n"
/// for block in result.content() {
///     if let Content::Image { mime_type, .. } = block { web_sys::console::log_1(&mime_type.into()); }
/// }
/// let weather: Option<Weather> = result.structured()?; // `structuredContent`, when there is one
/// assert!(!result.is_error());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct ToolResult {
    /// The result object, as it arrived (never copied or walked).
    pub value: JsValue,
}

impl ToolResult {
    /// `true` when the tool reported an error in its result (`isError: true`: the task itself
    /// completed).
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) {
    /// if result.is_error() { web_sys::console::warn_1(&result.value); }
    /// # }
    /// ```
    pub fn is_error(&self) -> bool {
        self.value.get("isError").and_then(|v| Json::as_bool(&v)) == Some(true)
    }

    /// The text of the result: its `"text"` content blocks' `text`, joined with `"\n"` (`""` when there
    /// is none) — as JS `resultText(result)`.
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) {
    /// web_sys::console::log_1(&result.text().into());
    /// # }
    /// ```
    pub fn text(&self) -> String {
        texts_of(&self.value.get("content").and_then(|c| c.items()).unwrap_or_default()).join("\n")
    }

    /// The result's content blocks, typed (a block this version does not know is [`Content::Other`],
    /// as it arrived; a `content` that is not an array gives none).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::Content;
    /// # fn f(result: mcp_tasks_wasm::ToolResult) {
    /// let links: Vec<String> = result.content().into_iter().filter_map(|c| match c {
    ///     Content::ResourceLink { uri, .. } => Some(uri),
    ///     _ => None,
    /// }).collect();
    /// # }
    /// ```
    pub fn content(&self) -> Vec<Content> {
        let items = self.value.get("content").and_then(|c| c.items()).unwrap_or_default();
        items.iter().map(Content::read).collect()
    }
}

/// One content block of a tool result, typed by its `type` (`value`-less variants keep the fields a
/// reader needs; [`Content::Other`] keeps a block of another type as it arrived).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Content {
    /// `{type: "text", text}`.
    Text {
        /// The text.
        text: String,
    },
    /// `{type: "image", data, mimeType}` (`data`: base64).
    Image {
        /// The base64 data.
        data: String,
        /// Its MIME type.
        mime_type: String,
    },
    /// `{type: "audio", data, mimeType}` (`data`: base64).
    Audio {
        /// The base64 data.
        data: String,
        /// Its MIME type.
        mime_type: String,
    },
    /// `{type: "resource_link", uri, name, …}`.
    ResourceLink {
        /// The resource's URI.
        uri: String,
        /// Its name.
        name: String,
    },
    /// `{type: "resource", resource: {uri, text | blob}}`: an embedded resource.
    Resource {
        /// The resource's URI.
        uri: String,
        /// Its text, for a text resource.
        text: Option<String>,
        /// Its base64 contents, for a binary one.
        blob: Option<String>,
    },
    /// A block of another type (or a known type without its fields), as it arrived.
    Other(JsValue),
}

/// The `text` of the `"text"` blocks among `blocks`, in order (a tool result's content, a sampling
/// message's).
pub(crate) fn texts_of(blocks: &[JsValue]) -> Vec<String> {
    blocks
        .iter()
        .filter_map(|b| match Content::read(b) {
            Content::Text { text } => Some(text),
            _ => None,
        })
        .collect()
}

impl Content {
    fn read(v: &JsValue) -> Self {
        let s = |key| v.get_str(key);
        let known = match v.get_str("type").as_deref() {
            Some("text") => s("text").map(|text| Self::Text { text }),
            Some("image") => s("data").zip(s("mimeType")).map(|(data, mime_type)| Self::Image { data, mime_type }),
            Some("audio") => s("data").zip(s("mimeType")).map(|(data, mime_type)| Self::Audio { data, mime_type }),
            Some("resource_link") => s("uri").zip(s("name")).map(|(uri, name)| Self::ResourceLink { uri, name }),
            Some("resource") => v.get("resource").and_then(|r| {
                let uri = r.get_str("uri")?;
                Some(Self::Resource { uri, text: r.get_str("text"), blob: r.get_str("blob") })
            }),
            _ => None,
        };
        known.unwrap_or_else(|| Self::Other(v.clone()))
    }
}

/// Input the library may not answer: a task's `input_required` status (`await_task`), or an MRTR
/// round of `tools/call` before any task exists (`{inputRequests, requestState}`).
///
/// ```no_run
/// use mcp_tasks_wasm::{call_tool, CallOptions, CallOutcome, DirectClient, Input};
/// # async fn f(client: DirectClient) -> Result<(), mcp_tasks_wasm::Error> {
/// let options = CallOptions { input: Input::Return, ..CallOptions::default() };
/// if let CallOutcome::InputRequired(needed) = call_tool(&client, "ask", &(), options).await? {
///     for request in &needed.input_requests { web_sys::console::log_1(&request.params); }
/// }
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct InputRequired {
    /// The task's status; `None` for an MRTR round (no task yet).
    pub task: Option<TaskStatus>,
    /// The outstanding requests.
    pub input_requests: Vec<InputRequest>,
    /// The MRTR round's `requestState`, to echo with the answers (`CallOptions::request_state`).
    pub request_state: Option<JsValue>,
    /// The status object, as in the JS outcome.
    pub value: JsValue,
}

impl InputRequired {
    /// Reads the `status` of an `input_required` outcome.
    pub(super) fn from_js(value: &JsValue) -> Self {
        Self {
            task: TaskStatus::from_js(value),
            input_requests: input_requests(value),
            request_state: value.get("requestState"),
            value: value.clone(),
        }
    }
}
