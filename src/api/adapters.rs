//! The package's JS transports, imported as wasm-bindgen snippets: the Rust clients are these very
//! adapters (one Streamable HTTP client, one port client, one direct client for both APIs).
//! wasm-bindgen copies each imported file into the app's `snippets/` folder, side by side, so the
//! adapters' own relative imports (`./channel.js`, `./errors.js`, `./values.js`) resolve there too.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/js/http.js")]
extern "C" {
    /// `httpClient(url, options)`; throws a `TypeError` on a bad option.
    #[wasm_bindgen(js_name = httpClient, catch)]
    pub fn http_client(url: &str, options: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/js/port.js")]
extern "C" {
    /// `portClient(port, options)`.
    #[wasm_bindgen(js_name = portClient, catch)]
    pub fn port_client(port: &JsValue, options: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/js/direct.js")]
extern "C" {
    /// `directClient(handler, options)`.
    #[wasm_bindgen(js_name = directClient, catch)]
    pub fn direct_client(handler: &JsValue, options: &JsValue) -> Result<JsValue, JsValue>;
}

// The modules the adapters import: declared so that wasm-bindgen copies them next to the adapters.
#[wasm_bindgen(module = "/js/channel.js")]
extern "C" {
    /// `channelClient(send, options)` (only declared: see the module comment).
    #[wasm_bindgen(js_name = channelClient)]
    pub fn channel_client(send: &JsValue, options: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/js/errors.js")]
extern "C" {
    /// `transportError(...)` (only declared: see the module comment).
    #[wasm_bindgen(js_name = transportError)]
    pub fn transport_error(message: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/js/generation.js")]
extern "C" {
    /// `generationOption(v, typeError)` (only declared: see the module comment).
    #[wasm_bindgen(js_name = generationOption)]
    pub(crate) fn generation_option(v: &JsValue, type_error: &JsValue) -> JsValue;
}

#[wasm_bindgen(module = "/js/values.js")]
extern "C" {
    /// `isObject(v)` (only declared: see the module comment).
    #[wasm_bindgen(js_name = isObject)]
    pub fn is_object(v: &JsValue) -> bool;
}

#[cfg(feature = "journal")]
#[wasm_bindgen(module = "/js/stores.js")]
extern "C" {
    /// `memoryJournal()`: a store in memory (for tests, and pages that only outlive their tasks).
    #[wasm_bindgen(js_name = memoryJournal, catch)]
    pub fn memory_journal() -> Result<JsValue, JsValue>;
    /// `indexedDbJournal(name)`: a store in the IndexedDB database `name`.
    #[wasm_bindgen(js_name = indexedDbJournal, catch)]
    pub fn indexed_db_journal(name: &str) -> Result<JsValue, JsValue>;
    /// `extensionStorageJournal(area)`: a store in `chrome.storage.local`/`session`.
    #[wasm_bindgen(js_name = extensionStorageJournal, catch)]
    pub fn extension_storage_journal(area: &JsValue) -> Result<JsValue, JsValue>;
}
