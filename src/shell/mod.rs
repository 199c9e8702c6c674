//! The async Rust shell around the engine: the calls both APIs make ([`calls`]: each written once,
//! journaled or not) run the engine's machines ([`machines`]) against a [`Client`](crate::api::client::Client) —
//! JS-supplied request functions — on the module's one gloo timer ([`timer`]), hearing the caller's
//! abort signals ([`signals`]), and end as [`settle::Ended`]. It makes no protocol decision. The JS
//! exports (`crate::bind`) and the Rust API (`crate::api`) are thin layers over it.

pub mod calls;
pub mod client;
pub mod clock;
pub mod hooks;
pub mod inbox;
#[cfg(feature = "journal")]
pub mod journal;
pub mod live;
pub mod machines;
pub mod millis;
pub mod mistake;
pub mod reply;
pub mod run;
pub mod settings;
pub mod settle;
pub mod signals;
pub mod slice;
pub mod tagged;
pub mod timer;
pub mod values;
