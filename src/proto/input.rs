//! Input requests (`inputRequests` entries) and the checks on the answers sent back for them.

use crate::json::{Json, Kind};
use crate::text::decimal;

/// The most input requests one status (or MRTR round) may list: more is a protocol violation. It bounds
/// what a wait holds for a server (one reserved key, and at most one running handler call, per request)
/// and keeps the work on one status short (10 000 are read a chunk at a time, see
/// [`ReadChunk`](crate::engine::settings::ReadChunk), and handled in linear passes).
pub(crate) const MAX_INPUT_REQUESTS: usize = 10_000;

/// The entries of an `inputRequests` object; `Err` when it lists more than [`MAX_INPUT_REQUESTS`] (counted
/// before any is read; `who`: what listed them, for the message), `Ok(None)` when it cannot be read.
pub(crate) fn input_entries<J: Json>(who: &str, requests: &J) -> Result<Option<Vec<(String, J)>>, String> {
    let n = requests.key_count().unwrap_or_default();
    if n > MAX_INPUT_REQUESTS {
        return Err([who, " lists ", &decimal(n as u64), " input requests, more than 10000"].concat());
    }
    Ok(requests.entries())
}

/// Which application handler answers a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum InputKind {
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
    /// The handler's name in `inputHandlers` (for the tests' traces).
    #[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
    pub(crate) fn handler_name(self) -> &'static str {
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
pub(crate) struct InputRequest<V> {
    /// The key it is answered under.
    pub key: String,
    /// The handler kind, or `None` when no handler kind exists for it (an unknown method or mode).
    pub kind: Option<InputKind>,
    /// The request's `params` (`null` when it has none).
    pub params: V,
}

/// Reads one `inputRequests` entry. Requests are untrusted server data: a malformed entry is a
/// protocol error, and so are an elicitation or sampling request without `params` (their handlers are
/// promised their params) and a url-mode elicitation whose `url` is not a safe web URL (`http:` or
/// `https:`, with a host, without credentials; see [`Json::is_safe_web_url`]). A `roots/list` request
/// without `params` hands its handler `{}`.
pub(crate) fn read_input_request<J: Json>(key: &str, value: &J) -> Result<InputRequest<J>, String> {
    let named = |what: &str| ["input request \"", key, "\" ", what].concat();
    if !value.is_object() {
        return Err(named("is not an object"));
    }
    let Some(method) = value.get_str("method") else {
        return Err(named("has no method"));
    };
    let params = value.get("params").filter(|p| p.kind() != Kind::Null);
    if params.as_ref().is_some_and(|p| !p.is_object()) {
        return Err(named("has params that are not an object"));
    }
    let kind = match method.as_str() {
        "elicitation/create" => {
            let p = params.as_ref().ok_or_else(|| named("(elicitation/create) has no params"))?;
            match p.get("mode") {
                None => Some(InputKind::Form),
                Some(mode) => match mode.as_str().as_deref() {
                    Some("form") => Some(InputKind::Form),
                    Some("url") => {
                        let url = p.get_str("url").unwrap_or_default();
                        if !J::is_safe_web_url(&url) {
                            return Err(named(
                                &["is a url elicitation whose url is not a safe http(s) URL: \"", &url, "\""].concat(),
                            ));
                        }
                        Some(InputKind::Url)
                    }
                    _ => None,
                },
            }
        }
        "sampling/createMessage" if params.is_none() => return Err(named("(sampling/createMessage) has no params")),
        "sampling/createMessage" => Some(InputKind::Sampling),
        "roots/list" => Some(InputKind::Roots),
        _ => None,
    };
    let params = params.unwrap_or_else(|| J::object(vec![]));
    Ok(InputRequest { key: key.to_owned(), kind, params })
}

/// Checks an answer for a request of `kind` before it is sent; `Err` says what is wrong.
pub(crate) fn check_response<J: Json>(kind: InputKind, response: &J) -> Result<(), String> {
    match kind {
        InputKind::Form | InputKind::Url => check_elicit_result(response),
        InputKind::Sampling => check_create_message_result(response),
        InputKind::Roots => check_list_roots_result(response),
    }
}

/// An `ElicitResult`: `action` is `"accept"`, `"decline"` or `"cancel"`; `content` only with `accept`,
/// an object of strings, numbers, booleans or string arrays.
pub(crate) fn check_elicit_result<J: Json>(v: &J) -> Result<(), String> {
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
        let Some(fields) = content.entries() else {
            return Err("an elicitation result's content cannot be read".to_owned());
        };
        for (k, value) in fields {
            let ok = match value.kind() {
                Kind::String | Kind::Number | Kind::Bool => true,
                Kind::Array => value.items().is_some_and(|items| items.iter().all(|i| i.kind() == Kind::String)),
                _ => false,
            };
            if !ok {
                return Err([
                    "an elicitation result's content field \"",
                    k.as_ref(),
                    "\" must be a string, number, boolean or array of strings",
                ]
                .concat());
            }
        }
    }
    Ok(())
}

/// A `CreateMessageResult`: `role` `"user"`/`"assistant"`, `content` a block or an array of blocks
/// (objects with a string `type`), and a string `model`.
pub(crate) fn check_create_message_result<J: Json>(v: &J) -> Result<(), String> {
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
        Some(c) if c.items().is_some_and(|items| !items.is_empty() && items.iter().all(is_block)) => {}
        _ => return Err("a sampling result needs content: a content block or an array of blocks".to_owned()),
    }
    if v.get_str("model").is_none() {
        return Err("a sampling result needs a string model".to_owned());
    }
    Ok(())
}

/// A `ListRootsResult`: `roots` is an array of objects whose `uri` is a `file://` URI (`name` optional).
pub(crate) fn check_list_roots_result<J: Json>(v: &J) -> Result<(), String> {
    let Some(roots) = v.get("roots").and_then(|r| r.items()) else {
        return Err("a roots result needs roots: an array".to_owned());
    };
    for (i, root) in roots.iter().enumerate() {
        let uri_ok = root.get_str("uri").is_some_and(|u| u.starts_with("file://"));
        if !root.is_object() || !uri_ok {
            return Err(["roots[", &decimal(i as u64), "] needs a uri that starts with file://"].concat());
        }
        if root.get("name").is_some_and(|n| n.kind() != Kind::String) {
            return Err(["roots[", &decimal(i as u64), "].name must be a string"].concat());
        }
    }
    Ok(())
}
