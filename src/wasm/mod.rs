//! The wasm shell: runs the engine's machines against JS clients, timers and signals, and exports
//! the JS API. It makes no protocol decisions.

mod client;
mod driver;
mod exports;
mod js_json;
mod rt;
mod scheduler;

/// The TypeScript declarations of the public API, emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");
