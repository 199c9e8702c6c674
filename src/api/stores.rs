//! The Rust API's journal stores: [`JournalStore`]'s constructors (the package's JS backends, or any
//! JS object with the four functions).

use super::adapters::{extension_storage_journal, indexed_db_journal, memory_journal};
use super::error::Error;
use crate::shell::JournalStore;
use wasm_bindgen::JsValue;

/// A store the wrong shape.
fn not_a_store() -> Error {
    Error::InvalidArgument("the journal must have get, put, delete and list".to_owned())
}

/// The store a JS store factory made (`Err`: the `TypeError` it threw, e.g. no IndexedDB here).
fn store_of(object: Result<JsValue, JsValue>) -> Result<JournalStore, Error> {
    JournalStore::read(&object.map_err(|e| Error::thrown_type_error(&e))?).ok_or_else(not_a_store)
}

impl JournalStore {
    /// A store in memory: it lives as long as the page or worker (tests, short-lived apps).
    ///
    /// ```no_run
    /// use mcp_tasks_wasm::{AwaitOptions, JournalStore};
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let wait = AwaitOptions { journal: Some(JournalStore::memory()?), ..AwaitOptions::default() };
    /// # Ok(()) }
    /// ```
    pub fn memory() -> Result<Self, Error> {
        store_of(memory_journal())
    }

    /// A store in the IndexedDB database `name` (pages and workers; the JS default is
    /// `"mcp-tasks-wasm"`): it survives reloads and restarts.
    ///
    /// ```no_run
    /// # fn f() -> Result<(), mcp_tasks_wasm::Error> {
    /// let store = mcp_tasks_wasm::JournalStore::indexed_db("mcp-tasks-wasm")?;
    /// # Ok(()) }
    /// ```
    pub fn indexed_db(name: &str) -> Result<Self, Error> {
        store_of(indexed_db_journal(name))
    }

    /// A store in a WebExtension storage area (`chrome.storage.local`, `chrome.storage.session`,
    /// `browser.storage.*`), e.g. for an MV3 service worker.
    ///
    /// ```no_run
    /// # fn f(chrome_storage_local: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
    /// let store = mcp_tasks_wasm::JournalStore::extension_storage(&chrome_storage_local)?;
    /// # Ok(()) }
    /// ```
    pub fn extension_storage(area: &JsValue) -> Result<Self, Error> {
        store_of(extension_storage_journal(area))
    }

    /// Any JS object with async `get(key)`, `put(key, entry)`, `delete(key)` and `list()` (the
    /// `Journal` interface of the `.d.ts`).
    ///
    /// ```no_run
    /// # fn f(object: wasm_bindgen::JsValue) -> Result<(), mcp_tasks_wasm::Error> {
    /// let store = mcp_tasks_wasm::JournalStore::from_js(&object)?;
    /// # Ok(()) }
    /// ```
    pub fn from_js(object: &JsValue) -> Result<Self, Error> {
        Self::read(object).ok_or_else(not_a_store)
    }
}
