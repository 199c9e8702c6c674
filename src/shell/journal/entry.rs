//! One journaled task as the store keeps it (`JournalEntry` in the `.d.ts`): read from what a store
//! gave (catching), updated from the statuses seen, written as a fresh plain object each time (the
//! store may keep what it is given).

use crate::json::Json;
use crate::shell::values::{entries, field, js_string};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::JsValue;

/// One input key answered: the hash of its answer, and the answer until its `tasks/update` is
/// acknowledged.
#[derive(Clone, Debug)]
pub struct Answered {
    /// The input request's key.
    pub key: String,
    /// `"sha256:<hex>"` (or `"fnv1a:<hex>"`) of the answer's JSON.
    pub hash: String,
    /// The answer, while it is not acknowledged.
    pub answer: Option<JsValue>,
}

/// A journal entry.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The client's `id`.
    pub server: String,
    /// The task.
    pub task_id: String,
    /// The tool that created the task, when the journal saw it created.
    pub tool: Option<String>,
    /// The task's `createdAt`, as last seen.
    pub created_at: Option<String>,
    /// The task's `ttlMs`, as last seen.
    pub ttl_ms: Option<f64>,
    /// The last non-terminal status seen, without a terminal payload.
    pub status: Option<JsValue>,
    /// The input keys answered.
    pub answered: Vec<Answered>,
    /// `Date.now()` when first journaled.
    pub journaled_at: f64,
}

impl Entry {
    /// A new entry of `task_id`, journaled now.
    pub fn new(server: &str, task_id: &str) -> Self {
        Self {
            server: server.to_owned(),
            task_id: task_id.to_owned(),
            tool: None,
            created_at: None,
            ttl_ms: None,
            status: None,
            answered: Vec::new(),
            journaled_at: js_sys::Date::now(),
        }
    }

    /// The entry of `task_id` a store gave (`None` when `stored` is no object of that task). Fields of
    /// the wrong type read as unknown; answered items without a key are dropped.
    pub fn read(stored: &JsValue, server: &str, task_id: &str) -> Option<Self> {
        if !stored.is_object() || stored.get_str("taskId").as_deref() != Some(task_id) {
            return None;
        }
        let answered = stored.get("answered").and_then(|a| a.items()).unwrap_or_default();
        Some(Self {
            server: stored.get_str("server").unwrap_or_else(|| server.to_owned()),
            task_id: task_id.to_owned(),
            tool: stored.get_str("tool"),
            created_at: stored.get_str("createdAt"),
            ttl_ms: stored.get_f64("ttlMs"),
            status: field(stored, "status").filter(|s| !s.is_null()),
            answered: answered.iter().filter_map(read_answered).collect(),
            journaled_at: stored.get_f64("journaledAt").unwrap_or_else(js_sys::Date::now),
        })
    }

    /// Takes `status` in: as journaled (a copy without `result` and `error`), and its times.
    pub fn see(&mut self, status: &JsValue) {
        let copy = Object::new();
        for (k, v) in entries(status).unwrap_or_default() {
            if k != "result" && k != "error" {
                let _ = Reflect::set(&copy, &js_string(&k), &v);
            }
        }
        self.status = Some(copy.into());
        if let Some(c) = status.get_str("createdAt") {
            self.created_at = Some(c);
        }
        if let Some(t) = field(status, "ttlMs") {
            self.ttl_ms = t.as_f64();
        }
    }

    /// The entry as a fresh plain object.
    pub fn to_js(&self) -> JsValue {
        let text = |s: &Option<String>| s.as_deref().map_or(JsValue::NULL, JsValue::from_str);
        let answered: Array = self.answered.iter().map(answered_to_js).collect();
        JsValue::object(vec![
            ("server", JsValue::from_str(&self.server)),
            ("taskId", JsValue::from_str(&self.task_id)),
            ("tool", text(&self.tool)),
            ("createdAt", text(&self.created_at)),
            ("ttlMs", self.ttl_ms.map_or(JsValue::NULL, JsValue::from_f64)),
            ("status", self.status.clone().unwrap_or(JsValue::NULL)),
            ("answered", answered.into()),
            ("journaledAt", JsValue::from_f64(self.journaled_at)),
        ])
    }
}

/// A stored `{key, hash, answer?}`.
fn read_answered(v: &JsValue) -> Option<Answered> {
    let key = v.get_str("key").filter(|k| !k.is_empty())?;
    let hash = v.get_str("hash").unwrap_or_default();
    Some(Answered { key, hash, answer: field(v, "answer") })
}

fn answered_to_js(a: &Answered) -> JsValue {
    let mut fields = vec![("key", JsValue::from_str(&a.key)), ("hash", JsValue::from_str(&a.hash))];
    if let Some(answer) = &a.answer {
        fields.push(("answer", answer.clone()));
    }
    JsValue::object(fields)
}

/// Whether a stored entry's task is past `createdAt + ttlMs` at `now` (the server's times; without a
/// readable `createdAt`, from when it was journaled). An entry without a numeric `ttlMs` never expires.
pub fn expired(entry: &JsValue, now: f64) -> bool {
    let Some(ttl) = entry.get_f64("ttlMs") else { return false };
    let created = entry.get_str("createdAt").map(|c| js_sys::Date::parse(&c)).filter(|t| t.is_finite());
    match created.or_else(|| entry.get_f64("journaledAt")) {
        Some(origin) => origin + ttl < now,
        None => false,
    }
}

/// The keys of a `tasks/update`'s `inputResponses`.
pub fn response_keys(params: &JsValue) -> Vec<String> {
    let responses = field(params, "inputResponses").unwrap_or(JsValue::UNDEFINED);
    entries(&responses).unwrap_or_default().into_iter().map(|(k, _)| k).collect()
}
