//! The transports' TypeScript declarations. Every client is JS: `directClient` (`js/direct.js`) and
//! the message transports (HTTP, stdio, ports, SDK transports) on the JSON-RPC channel of
//! `js/channel.js`, so an app ships only the ones it imports.

/// The TypeScript declarations of the transports (the channel client, `httpClient`,
/// `sdkTransportClient`, `directClient`'s handler), emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
