//! The ready clients. The pure part (the JSON-RPC channel under every message transport) compiles on
//! every target and is tested natively; the clients themselves exist on wasm32 only. The HTTP client
//! is a small JS adapter over the same channel (`js/http.js`), so an app that does not import it does
//! not ship it.

pub mod channel;

#[cfg(target_arch = "wasm32")]
mod direct;
#[cfg(target_arch = "wasm32")]
pub(crate) mod js;
#[cfg(target_arch = "wasm32")]
mod message;
