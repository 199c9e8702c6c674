//! A journal's store: a JS object with async `get(key)`, `put(key, entry)`, `delete(key)` and
//! `list()` (the documented `Journal` interface), its functions read once. Every call catches: what a
//! function throws, like what its promise rejects with, is the call's `Err`.

use crate::shell::callbacks::Reply;
use crate::shell::interop::from_js::{as_function, field};
use crate::shell::interop::to_js::js_string;
use crate::shell::reply::called;
use js_sys::Function;
#[cfg(feature = "js")]
use std::cell::RefCell;
use wasm_bindgen::prelude::*;

// The default store (`journal: true`) is the package's own IndexedDB backend, imported from the JS
// module that holds the backends (wasm-bindgen emits it under pkg/snippets/, and the glue imports it):
// a typed import the compiler checks, rather than a store handed in at run time by the entry files (a
// setter would be an untyped side effect every entry must remember to run, and a JS layer between the
// caller and the exports). The backends stay JS: they only move entries in and out of storage.
#[cfg(feature = "js")]
#[wasm_bindgen(module = "/js/stores.js")]
extern "C" {
    /// `indexedDbJournal()` of `js/stores.js`: a store in the IndexedDB database "mcp-tasks-wasm".
    #[wasm_bindgen(js_name = indexedDbJournal, catch)]
    fn default_indexed_db_journal() -> Result<JsValue, JsValue>;
}

#[cfg(feature = "js")]
thread_local! {
    /// The default store, once made.
    static DEFAULT: RefCell<Option<JournalStore>> = const { RefCell::new(None) };
}

/// A journal store (any object with the four functions): where journaled calls record their tasks.
///
/// ```no_run
/// use mcp_tasks_wasm::{AwaitOptions, JournalStore};
/// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
/// let wait = AwaitOptions { journal: Some(JournalStore::indexed_db("mcp-tasks-wasm")?), ..AwaitOptions::default() };
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct JournalStore {
    object: JsValue,
    get: Function,
    put: Function,
    delete: Function,
    list: Function,
}

impl JournalStore {
    /// The store `v` is: an object (not a function) with `get`, `put`, `delete` and `list` functions.
    pub(crate) fn read(v: &JsValue) -> Option<Self> {
        if !v.is_object() {
            return None;
        }
        let f = |name| field(v, name).and_then(|f| as_function(&f));
        Some(Self { object: v.clone(), get: f("get")?, put: f("put")?, delete: f("delete")?, list: f("list")? })
    }

    /// What `journal: true` means: an `indexedDbJournal()` (one for the module) where IndexedDB exists;
    /// `None` elsewhere.
    #[cfg(feature = "js")]
    pub(crate) fn default_store() -> Option<Self> {
        if let Some(s) = DEFAULT.with(|d| d.borrow().clone()) {
            return Some(s);
        }
        field(&js_sys::global(), "indexedDB")?;
        let store = Self::read(&default_indexed_db_journal().ok()?)?;
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
