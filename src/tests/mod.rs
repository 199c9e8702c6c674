//! The crate's own tests, inside it so that its internals stay `pub(crate)`: the engine's scenarios on
//! simulated time ([`sim`]: a scripted server, scripted handlers, a time-stamped trace), the protocol's
//! readings, the property tests over the fuzz world (`crate::fuzzing`), and — on wasm32, run by
//! wasm-bindgen-test in Node and Chromium (`tests/wasm/run.mjs`) — the async shell against scripted
//! clients. The public APIs are tested from outside, as users get them (`tests/`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

#[cfg(not(target_arch = "wasm32"))]
mod engine_call;
#[cfg(not(target_arch = "wasm32"))]
mod engine_cancel;
#[cfg(not(target_arch = "wasm32"))]
mod engine_core;
#[cfg(not(target_arch = "wasm32"))]
mod engine_input;
#[cfg(not(target_arch = "wasm32"))]
mod engine_listen;
#[cfg(not(target_arch = "wasm32"))]
mod engine_promises;
#[cfg(not(target_arch = "wasm32"))]
mod engine_wait;
#[cfg(not(target_arch = "wasm32"))]
mod props;
#[cfg(not(target_arch = "wasm32"))]
mod proto;
#[cfg(not(target_arch = "wasm32"))]
mod sim;

/// What the wasm-bindgen tests share, in and out of the crate (one copy: `tests/support`).
#[cfg(target_arch = "wasm32")]
#[path = "../../tests/support/mod.rs"]
mod support;
#[cfg(target_arch = "wasm32")]
mod wasm_driver;
