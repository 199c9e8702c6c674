//! `directClient(handler)`: an in-process client. `request` calls `handler(method, params, options)`,
//! sync or async, with the request's own options (`{signal, timeoutMs?}`); a thrown
//! `{code, message, data?}` answers with that JSON-RPC error. `listen` calls
//! `handler("subscriptions/listen", params, {signal})`, which returns (or resolves to) an async
//! iterable of notifications. It has no request timeout of its own. Like any MCP client it adds
//! `_meta["io.modelcontextprotocol/protocolVersion"]` when the params lack it.

use crate::json::Json;
use crate::proto::request::deep_merge;
use crate::proto::{META_PROTOCOL_VERSION, PROTOCOL_VERSION};
use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

/// Builds the direct client. `options` may carry `clientCapabilities` and `inputHandlers`, copied
/// onto the client.
#[wasm_bindgen(js_name = directClient, unchecked_return_type = "TasksClient")]
pub fn direct_client(
    #[wasm_bindgen(unchecked_param_type = "DirectHandler")] handler: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "DirectClientOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    crate::wasm::install_panic_hook();
    let handler: Function =
        handler.dyn_into().map_err(|_| js_sys::TypeError::new("directClient: handler must be a function"))?;
    let h = handler.clone();
    let request = Closure::<dyn FnMut(JsValue, JsValue, JsValue) -> Promise>::new(
        move |method: JsValue, params: JsValue, opts: JsValue| call(&h, &method, &params, &opts),
    );
    let listen = Closure::<dyn FnMut(JsValue, JsValue) -> Promise>::new(move |params: JsValue, opts: JsValue| {
        call(&handler, &"subscriptions/listen".into(), &params, &opts)
    });
    let mut fields = vec![("request", request.into_js_value()), ("listen", listen.into_js_value())];
    for key in ["clientCapabilities", "inputHandlers"] {
        if let Some(v) = options.get(key) {
            fields.push((key, v));
        }
    }
    Ok(JsValue::object(fields))
}

fn call(handler: &Function, method: &JsValue, params: &JsValue, opts: &JsValue) -> Promise {
    let version = JsValue::object(vec![(META_PROTOCOL_VERSION, JsValue::from_str(PROTOCOL_VERSION))]);
    let meta = match params.get("_meta") {
        Some(m) if m.get(META_PROTOCOL_VERSION).is_some() => m,
        Some(m) => deep_merge(&version, &m),
        None => version,
    };
    let params = &params.with_field("_meta", Some(meta));
    // The request's options are the handler's context: `signal` (made when first read), `timeoutMs`.
    match handler.call3(&JsValue::UNDEFINED, method, params, opts) {
        Ok(v) => Promise::resolve(&v),
        Err(e) => Promise::reject(&e),
    }
}
