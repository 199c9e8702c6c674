//! The one ready client in the wasm module: `directClient` (in-process). Every message transport
//! (HTTP, stdio, ports, SDK transports) is a JS adapter over the JSON-RPC channel in `js/channel.js`,
//! so an app that does not import one does not ship it.

mod direct;

/// The TypeScript declarations of the transports (the channel client, `httpClient`,
/// `sdkTransportClient`), emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
