//! The imports from `rt.js`: the catching reads (and the few builds) the module's `Json` over JS
//! values goes through, so no JS exception can cross into the module; and `emit`, which hands the
//! JS driver a machine's actions.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/wasm/rt.js")]
extern "C" {
    /// `target[key]` of an object (not null, not a function), else `undefined` — also when reading it
    /// throws (a getter, a Proxy trap, a revoked Proxy).
    #[wasm_bindgen(js_name = readKey)]
    pub fn read_key(target: &JsValue, key: &JsValue) -> JsValue;
    /// `target[key] = value` on an object the module just made (it cannot throw).
    #[wasm_bindgen(js_name = writeKey)]
    pub fn write_key(target: &JsValue, key: &JsValue, value: &JsValue);
    /// The own entries of a plain object as `[key, value, key, value, …]` (values read with
    /// `readKey`, undefined ones left out), or undefined for anything else or when its keys cannot be read.
    #[wasm_bindgen(js_name = entriesOf)]
    pub fn entries_of(v: &JsValue) -> JsValue;
    /// A copy of an array's items, or undefined when `v` is not a readable array.
    #[wasm_bindgen(js_name = itemsOf)]
    pub fn items_of(v: &JsValue) -> JsValue;
    /// `list.length` of an array `entriesOf` or `itemsOf` made.
    #[wasm_bindgen(js_name = lengthOf)]
    pub fn length_of(list: &JsValue) -> u32;
    /// `list[i]` of an array the package made (`entriesOf`, `itemsOf`, `js/run.js`'s option numbers).
    #[wasm_bindgen(js_name = itemAt)]
    pub fn item_at(list: &JsValue, i: u32) -> JsValue;
    /// A new empty plain object.
    #[wasm_bindgen(js_name = newObject)]
    pub fn new_object() -> JsValue;
    /// A new empty array.
    #[wasm_bindgen(js_name = newArray)]
    pub fn new_array() -> JsValue;
    /// `list.push(item)` on an array the module just made.
    #[wasm_bindgen(js_name = pushItem)]
    pub fn push_item(list: &JsValue, item: &JsValue);
    /// 0 null, 1 boolean, 2 number, 3 string, 4 array, 5 object, 6 other or unreadable.
    #[wasm_bindgen(js_name = kindOf)]
    pub fn kind_of(v: &JsValue) -> u32;
    /// `v instanceof DOMException` (false when unreadable).
    #[wasm_bindgen(js_name = isException)]
    pub fn is_exception(v: &JsValue) -> bool;
    /// Freezes a value the module built, deeply.
    #[wasm_bindgen(js_name = deepFreeze)]
    pub fn deep_freeze(v: &JsValue) -> JsValue;
    /// `out.push(code, id, a, b, c, d, ms)`: one action for the JS driver.
    #[allow(clippy::too_many_arguments)]
    pub fn emit(out: &JsValue, code: u32, id: u32, a: &JsValue, b: &JsValue, c: &JsValue, d: &JsValue, ms: f64);
    /// The WHATWG URL check for url-mode elicitations.
    #[wasm_bindgen(js_name = isSafeWebUrl)]
    pub fn is_safe_web_url(s: &str) -> bool;
}

#[cfg(not(panic = "immediate-abort"))]
#[wasm_bindgen]
extern "C" {
    /// `console.error(message)`.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    pub fn console_error(message: &str);
}
