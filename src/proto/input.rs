//! Input requests (`inputRequests` entries) and the checks on the answers sent back for them.

use crate::json::{Json, Kind};

/// Which application handler answers a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// `elicitation/create` in form mode (the default mode).
    Form,
    /// `elicitation/create` in url mode.
    Url,
    /// `sampling/createMessage`.
    Sampling,
    /// `roots/list`.
    Roots,
}

impl InputKind {
    /// The handler's name in `inputHandlers`.
    pub fn handler_name(self) -> &'static str {
        match self {
            Self::Form => "form",
            Self::Url => "url",
            Self::Sampling => "sampling",
            Self::Roots => "roots",
        }
    }
}

/// One outstanding request.
#[derive(Clone, Debug)]
pub struct InputRequest<V> {
    /// The key it is answered under.
    pub key: String,
    /// The handler kind, or `None` when no handler kind exists for it (an unknown method or mode).
    pub kind: Option<InputKind>,
    /// The request's `params` (`null` when it has none).
    pub params: V,
}

/// Reads one `inputRequests` entry. Requests are untrusted server data: a malformed entry, or a
/// url-mode elicitation whose `url` is not `https:`/`http:`, is a protocol error.
pub fn read_input_request<J: Json>(key: &str, value: &J) -> Result<InputRequest<J>, String> {
    if !value.is_object() {
        return Err(format!("input request \"{key}\" is not an object"));
    }
    let Some(method) = value.get_str("method") else {
        return Err(format!("input request \"{key}\" has no method"));
    };
    let params = value.get("params").unwrap_or_else(J::null);
    if !(params.is_object() || params.kind() == Kind::Null) {
        return Err(format!("input request \"{key}\" has params that are not an object"));
    }
    let kind = match method.as_str() {
        "elicitation/create" => match params.get("mode") {
            None => Some(InputKind::Form),
            Some(mode) => match mode.as_str().as_deref() {
                Some("form") => Some(InputKind::Form),
                Some("url") => {
                    let url = params.get_str("url").unwrap_or_default();
                    if !is_web_url(&url) {
                        return Err(format!(
                            "input request \"{key}\" is a url elicitation whose url is not http(s): \"{url}\""
                        ));
                    }
                    Some(InputKind::Url)
                }
                _ => None,
            },
        },
        "sampling/createMessage" => Some(InputKind::Sampling),
        "roots/list" => Some(InputKind::Roots),
        _ => None,
    };
    Ok(InputRequest { key: key.to_owned(), kind, params })
}

/// `true` for an absolute `https:` or `http:` URL with a host and no whitespace or control characters.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        url.get(8..)
    } else if lower.starts_with("http://") {
        url.get(7..)
    } else {
        None
    };
    match rest {
        Some(r) => !r.is_empty() && !r.starts_with('/') && !url.chars().any(|c| c.is_whitespace() || c.is_control()),
        None => false,
    }
}

/// Checks an answer for a request of `kind` before it is sent; `Err` says what is wrong.
pub fn check_response<J: Json>(kind: InputKind, response: &J) -> Result<(), String> {
    match kind {
        InputKind::Form | InputKind::Url => check_elicit_result(response),
        InputKind::Sampling => check_create_message_result(response),
        InputKind::Roots => check_list_roots_result(response),
    }
}

/// An `ElicitResult`: `action` is `"accept"`, `"decline"` or `"cancel"`; `content` only with `accept`,
/// an object of strings, numbers, booleans or string arrays.
pub fn check_elicit_result<J: Json>(v: &J) -> Result<(), String> {
    if !v.is_object() {
        return Err("an elicitation result must be an object".to_owned());
    }
    let action = v.get_str("action");
    match action.as_deref() {
        Some("accept" | "decline" | "cancel") => {}
        _ => return Err("an elicitation result needs action \"accept\", \"decline\" or \"cancel\"".to_owned()),
    }
    if let Some(content) = v.get("content") {
        if action.as_deref() != Some("accept") {
            return Err("an elicitation result carries content only with action \"accept\"".to_owned());
        }
        if !content.is_object() {
            return Err("an elicitation result's content must be an object".to_owned());
        }
        for (k, value) in content.entries() {
            let ok = match value.kind() {
                Kind::String | Kind::Number | Kind::Bool => true,
                Kind::Array => value.items().iter().all(|i| i.kind() == Kind::String),
                _ => false,
            };
            if !ok {
                return Err(format!("an elicitation result's content field \"{k}\" must be a string, number, boolean or array of strings"));
            }
        }
    }
    Ok(())
}

/// A `CreateMessageResult`: `role` `"user"`/`"assistant"`, `content` a block or an array of blocks
/// (objects with a string `type`), and a string `model`.
pub fn check_create_message_result<J: Json>(v: &J) -> Result<(), String> {
    if !v.is_object() {
        return Err("a sampling result must be an object".to_owned());
    }
    match v.get_str("role").as_deref() {
        Some("user" | "assistant") => {}
        _ => return Err("a sampling result needs role \"user\" or \"assistant\"".to_owned()),
    }
    let is_block = |b: &J| b.is_object() && b.get_str("type").is_some();
    match v.get("content") {
        Some(c) if is_block(&c) => {}
        Some(c) if c.kind() == Kind::Array && !c.items().is_empty() && c.items().iter().all(is_block) => {}
        _ => return Err("a sampling result needs content: a content block or an array of blocks".to_owned()),
    }
    if v.get_str("model").is_none() {
        return Err("a sampling result needs a string model".to_owned());
    }
    Ok(())
}

/// A `ListRootsResult`: `roots` is an array of objects whose `uri` is a `file://` URI (`name` optional).
pub fn check_list_roots_result<J: Json>(v: &J) -> Result<(), String> {
    let Some(roots) = v.get("roots").filter(|r| r.kind() == Kind::Array) else {
        return Err("a roots result needs roots: an array".to_owned());
    };
    for (i, root) in roots.items().iter().enumerate() {
        let uri_ok = root.get_str("uri").is_some_and(|u| u.starts_with("file://"));
        if !root.is_object() || !uri_ok {
            return Err(format!("roots[{i}] needs a uri that starts with file://"));
        }
        if root.get("name").is_some_and(|n| n.kind() != Kind::String) {
            return Err(format!("roots[{i}].name must be a string"));
        }
    }
    Ok(())
}
