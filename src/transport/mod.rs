//! The ready clients. The pure parts (the JSON-RPC channel under message transports, SSE parsing,
//! routing headers) compile on every target and are tested natively; the clients themselves exist on
//! wasm32 only.

pub mod channel;
pub mod headers;
pub mod sse;

#[cfg(target_arch = "wasm32")]
mod direct;
#[cfg(target_arch = "wasm32")]
pub(crate) mod http;
#[cfg(target_arch = "wasm32")]
pub(crate) mod js;
#[cfg(target_arch = "wasm32")]
mod message;
