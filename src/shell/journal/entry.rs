//! One journaled task as the store keeps it (`JournalEntry` in the `.d.ts`), kept as the JS object it
//! is stored as — never a Rust copy converted back and forth. What a store gave is read field by field
//! (catching) into a new object; each change then makes a new object, and an object once made is never
//! changed (the store may keep what it is given).

use crate::json::Json;
use crate::shell::interop::from_js::{entries, field, text_of};
use crate::shell::interop::to_js::{js_string, js_text, set_key};
use js_sys::{Array, Object};
use wasm_bindgen::{JsCast, JsValue};

/// The generation and the session id a client has open (`Client::generation_and_session`), as an entry records them.
pub(crate) type Session = (Option<String>, Option<String>);

/// `v[key]` when it is a string, else `null`.
fn text(v: &JsValue, key: &str) -> JsValue {
    field(v, key).filter(JsValue::is_string).unwrap_or(JsValue::NULL)
}

/// `v[key]` when it is a number, else `null`.
fn number(v: &JsValue, key: &str) -> JsValue {
    field(v, key).filter(|n| n.as_f64().is_some()).unwrap_or(JsValue::NULL)
}

/// The entry's `answered` items (ours: always an array).
pub(crate) fn answered(entry: &JsValue) -> Array {
    field(entry, "answered").map_or_else(Array::new, JsCast::unchecked_into)
}

/// An `answered` item: `{key, hash}`, and `answer` while it is not acknowledged.
fn item(key: JsValue, hash: JsValue, answer: Option<JsValue>) -> JsValue {
    let mut fields = vec![("key", key), ("hash", hash)];
    if let Some(answer) = answer {
        fields.push(("answer", answer));
    }
    JsValue::object(fields)
}

/// A copy of our `entry` with `key` set to `value` (the copy is new: `entry` is never changed).
fn with(entry: &JsValue, key: &str, value: &JsValue) -> JsValue {
    let copy = Object::assign(&Object::new(), entry.unchecked_ref());
    set_key(&copy, key, value);
    copy.into()
}

/// The entry of `task_id` as a call opens it: what a store gave (`stored`, when it is an object of
/// that task; fields of the wrong type read as `null`, answered items without a key are dropped), else
/// a new one journaled now; `tool`, when known, replaces the stored one, and so do the `generation` and
/// `sessionId` of `session` (the client's; unknown ones keep the stored ones).
pub(crate) fn open(stored: &JsValue, server: &str, task_id: &str, tool: Option<String>, session: Session) -> JsValue {
    let known = stored.is_object() && stored.get_str("taskId").as_deref() == Some(task_id);
    let stored = if known { stored } else { &JsValue::UNDEFINED };
    let kept = Array::new();
    for a in stored.get("answered").and_then(|a| a.items()).unwrap_or_default() {
        let Some(key) = field(&a, "key").filter(|k| k.as_string().is_some_and(|k| !k.is_empty())) else { continue };
        let hash = field(&a, "hash").filter(JsValue::is_string).unwrap_or_else(|| js_string(""));
        kept.push(&item(key, hash, field(&a, "answer")));
    }
    let journaled_at = field(stored, "journaledAt").filter(|n| n.as_f64().is_some());
    let latest = |now: Option<String>, key| now.map_or_else(|| text(stored, key), |v| JsValue::from_str(&v));
    let (generation, session_id) = session;
    JsValue::object(vec![
        ("server", field(stored, "server").filter(JsValue::is_string).unwrap_or_else(|| JsValue::from_str(server))),
        ("taskId", js_text(task_id)),
        ("tool", latest(tool, "tool")),
        ("generation", latest(generation, "generation")),
        ("sessionId", latest(session_id, "sessionId")),
        ("createdAt", text(stored, "createdAt")),
        ("ttlMs", number(stored, "ttlMs")),
        ("status", field(stored, "status").unwrap_or(JsValue::NULL)),
        ("answered", kept.into()),
        ("journaledAt", journaled_at.unwrap_or_else(|| JsValue::from_f64(js_sys::Date::now()))),
    ])
}

/// `entry` having seen `status`: journaled as a copy without `result` and `error`, with its times.
pub(crate) fn see(entry: &JsValue, status: &JsValue) -> JsValue {
    let copy = Object::new();
    for (k, v) in entries(status).unwrap_or_default() {
        if k != "result" && k != "error" {
            set_key(&copy, &k, &v);
        }
    }
    let next = with(entry, "status", &copy);
    if let Some(c) = field(status, "createdAt").filter(JsValue::is_string) {
        set_key(&next, "createdAt", &c);
    }
    if let Some(t) = field(status, "ttlMs") {
        set_key(&next, "ttlMs", &t.as_f64().map_or(JsValue::NULL, JsValue::from_f64));
    }
    next
}

/// `entry` with the answer `response` for `key` (hash `hash`), replacing an earlier one.
pub(crate) fn answer(entry: &JsValue, key: &str, hash: &str, response: &JsValue) -> JsValue {
    let key = js_text(key);
    let items = Array::new();
    for a in answered(entry).iter() {
        if field(&a, "key").as_ref() != Some(&key) {
            items.push(&a);
        }
    }
    items.push(&item(key, JsValue::from_str(hash), Some(response.clone())));
    with(entry, "answered", &items)
}

/// `entry` after a `tasks/update` carrying `keys` was acknowledged: their answers go (the hashes stay).
pub(crate) fn acked(entry: &JsValue, keys: &[String]) -> JsValue {
    let items = Array::new();
    for a in answered(entry).iter() {
        let key = field(&a, "key").unwrap_or_default();
        let done = text_of(&key).is_some_and(|k| keys.contains(&k));
        items.push(&if done { item(key, field(&a, "hash").unwrap_or_default(), None) } else { a });
    }
    with(entry, "answered", &items)
}

/// Whether a stored entry's task is past `createdAt + ttlMs` at `now` (the server's times; without a
/// readable `createdAt`, from when it was journaled). An entry without a numeric `ttlMs` never expires.
pub(crate) fn expired(entry: &JsValue, now: f64) -> bool {
    let Some(ttl) = entry.get_f64("ttlMs") else { return false };
    let created = entry.get_str("createdAt").map(|c| js_sys::Date::parse(&c)).filter(|t| t.is_finite());
    match created.or_else(|| entry.get_f64("journaledAt")) {
        Some(origin) => origin + ttl < now,
        None => false,
    }
}

/// The keys of a `tasks/update`'s `inputResponses`.
pub(crate) fn response_keys(params: &JsValue) -> Vec<String> {
    let responses = field(params, "inputResponses").unwrap_or(JsValue::UNDEFINED);
    entries(&responses).unwrap_or_default().into_iter().map(|(k, _)| k).collect()
}
