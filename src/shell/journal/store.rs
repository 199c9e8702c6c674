//! A journal's store: a JS object with async `get(key)`, `put(key, entry)`, `delete(key)` and
//! `list()` (the documented `Journal` interface), its functions read once. Every call catches: what a
//! function throws, like what its promise rejects with, is the call's `Err`.

use crate::shell::reply::{called, Reply};
use crate::shell::values::{as_function, field, js_string, js_text};
use js_sys::Function;
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

// The default store (`journal: true`) is the package's own IndexedDB backend, imported from the JS
// module that holds the backends (wasm-bindgen emits it under pkg/snippets/, and the glue imports it):
// a typed import the compiler checks, rather than a store handed in at run time by the entry files (a
// setter would be an untyped side effect every entry must remember to run, and a JS layer between the
// caller and the exports). The backends stay JS: they only move entries in and out of storage.
#[wasm_bindgen(module = "/js/stores.js")]
extern "C" {
    /// `indexedDbJournal()` of `js/stores.js`: a store in the IndexedDB database "mcp-tasks-wasm".
    #[wasm_bindgen(js_name = indexedDbJournal, catch)]
    fn indexed_db_journal() -> Result<JsValue, JsValue>;
}

thread_local! {
    /// The default store, once made.
    static DEFAULT: RefCell<Option<Store>> = const { RefCell::new(None) };
}

/// A journal store (any object with the four functions): where journaled calls record their tasks
/// (the crate root names it `JournalStore`).
///
/// ```no_run
/// use mcp_tasks_wasm::{AwaitOptions, JournalStore};
/// # fn f() -> Result<(), wasm_bindgen::JsValue> {
/// let wait = AwaitOptions { journal: Some(JournalStore::indexed_db("mcp-tasks-wasm")?), ..AwaitOptions::default() };
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Store {
    object: JsValue,
    get: Function,
    put: Function,
    delete: Function,
    list: Function,
}

impl Store {
    /// The store `v` is: an object (not a function) with `get`, `put`, `delete` and `list` functions.
    #[doc(hidden)]
    pub fn read(v: &JsValue) -> Option<Self> {
        if !v.is_object() {
            return None;
        }
        let f = |name| field(v, name).and_then(|f| as_function(&f));
        Some(Self { object: v.clone(), get: f("get")?, put: f("put")?, delete: f("delete")?, list: f("list")? })
    }

    /// What `journal: true` means: an `indexedDbJournal()` (one for the module) where IndexedDB exists;
    /// `None` elsewhere.
    #[doc(hidden)]
    pub fn default_store() -> Option<Self> {
        if let Some(s) = DEFAULT.with(|d| d.borrow().clone()) {
            return Some(s);
        }
        field(&js_sys::global(), "indexedDB")?;
        let store = Self::read(&indexed_db_journal().ok()?)?;
        DEFAULT.with(|d| *d.borrow_mut() = Some(store.clone()));
        Some(store)
    }

    /// `get(key)`: the entry stored under `key` (`undefined` when none).
    #[doc(hidden)]
    pub fn get(&self, key: &str) -> Reply {
        called(self.get.call1(&self.object, &js_string(key)))
    }

    /// `put(key, entry)`.
    #[doc(hidden)]
    pub fn put(&self, key: &str, entry: &JsValue) -> Reply {
        called(self.put.call2(&self.object, &js_string(key), entry))
    }

    /// `delete(key)`.
    #[doc(hidden)]
    pub fn delete(&self, key: &str) -> Reply {
        called(self.delete.call1(&self.object, &js_string(key)))
    }

    /// `list()`: every entry.
    #[doc(hidden)]
    pub fn list(&self) -> Reply {
        called(self.list.call0(&self.object))
    }
}

/// The journal key of a task: `JSON.stringify([server, taskId])`.
pub fn key_of(server: &str, task_id: &str) -> String {
    key_of_values(&JsValue::from_str(server), &js_text(task_id))
}

/// [`key_of`] of the values an entry holds.
pub fn key_of_values(server: &JsValue, task_id: &JsValue) -> String {
    let pair = js_sys::Array::of2(server, task_id);
    js_sys::JSON::stringify(&pair).ok().and_then(|s| s.as_string()).unwrap_or_default()
}
