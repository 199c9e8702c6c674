//! The JS API: thin wasm-bindgen bindings over the typed async functions of [`crate::shell`]. Each
//! export reads its arguments (through the shell's `Js` newtype: an invalid argument rejects with a `TypeError`, never a synchronous
//! throw), calls the typed function, and turns its outcome into the tagged JS object.

// The exports are JS's, not Rust's: `pub` for wasm-bindgen, reachable from no Rust path.
#[allow(unreachable_pub)]
mod exports;
mod registry;

/// The TypeScript declarations of the public API, emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// The task journal's declarations (with the cargo feature `journal`).
#[cfg(feature = "journal")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const JOURNAL_TYPES: &str = include_str!("journal.d.ts");
