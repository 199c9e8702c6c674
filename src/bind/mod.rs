//! The JS face: thin wasm-bindgen bindings over the operations of [`crate::shell`]. Each export reads
//! its arguments (through the shell's `Js` newtype: an invalid argument rejects with a `TypeError`,
//! never a synchronous throw), calls the operation, and hands its tagged outcome object to the
//! promises' registry. The package's TypeScript declarations all live in `js/types/`; those of the
//! module's own exports and of the transports are emitted into the generated `.d.ts` from there.

// The exports are JS's, not Rust's: `pub` for wasm-bindgen, reachable from no Rust path.
#[allow(unreachable_pub)]
mod exports;
mod registry;

/// The TypeScript declarations of the exports, emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../js/types/api.d.ts");

/// The transports' declarations (the channel client, `httpClient`, `sdkTransportClient`,
/// `directClient`'s handler), emitted beside them: the exports' options name their types.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TRANSPORT_TYPES: &str = include_str!("../../js/types/transports.d.ts");

/// The task journal's declarations (with the cargo feature `journal`).
#[cfg(feature = "journal")]
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const JOURNAL_TYPES: &str = include_str!("../../js/types/journal.d.ts");
