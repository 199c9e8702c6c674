//! Rust values to and from JS values, with serde-wasm-bindgen (maps as plain objects): the arguments
//! going out, and a request's params or a result read as the caller's types.

use super::error::Error;
use super::outcome::ToolResult;
use super::status::InputRequest;
use crate::json::Json;
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

/// `value` as a JS value (serde-wasm-bindgen; maps as plain objects).
pub(crate) fn to_js(value: &impl Serialize) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_sys::TypeError::new(&e.to_string()).into())
}

/// A JS value as the caller's type (serde-wasm-bindgen); `Err`: [`Error::InvalidArgument`] with
/// serde-wasm-bindgen's message, after `what`.
pub(crate) fn from_js<T: serde::de::DeserializeOwned>(what: &str, value: &JsValue) -> Result<T, Error> {
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| Error::not_fitting(what, &e))
}

impl InputRequest {
    /// Its `params` as the caller's type (serde-wasm-bindgen); `Err`:
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when they do not fit it.
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// struct Form { message: String }
    /// # fn f(request: mcp_tasks_wasm::InputRequest) -> Result<(), mcp_tasks_wasm::Error> {
    /// let form: Form = request.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        from_js("params", &self.params)
    }
}

impl ToolResult {
    /// The whole result as the caller's type (serde-wasm-bindgen); `Err`:
    /// [`Error::InvalidArgument`](Error::InvalidArgument) when it does not fit.
    ///
    /// ```no_run
    /// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), mcp_tasks_wasm::Error> {
    /// let any: serde_json::Value = result.deserialize()?;
    /// # Ok(()) }
    /// ```
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T, Error> {
        from_js("result", &self.value)
    }

    /// The result's `structuredContent` as the caller's type: `Ok(None)` when the result has none,
    /// `Err(Error::InvalidArgument)` when it does not fit `T`.
    ///
    /// ```no_run
    /// #[derive(serde::Deserialize)]
    /// struct Sum { total: u32 }
    /// # fn f(result: mcp_tasks_wasm::ToolResult) -> Result<(), mcp_tasks_wasm::Error> {
    /// if let Some(sum) = result.structured::<Sum>()? { assert!(sum.total > 0); }
    /// # Ok(()) }
    /// ```
    pub fn structured<T: DeserializeOwned>(&self) -> Result<Option<T>, Error> {
        match self.value.get("structuredContent") {
            None => Ok(None),
            Some(v) if v.is_null() => Ok(None),
            Some(v) => from_js("structuredContent", &v).map(Some),
        }
    }
}
