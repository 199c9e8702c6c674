//! The async Rust shell around the engine: the calls both APIs make ([`calls`]: each written once,
//! journaled or not) run the engine's machines ([`start`]) against a [`Client`](crate::shell::client::Client) —
//! JS-supplied request functions — on the module's one gloo timer ([`timer`]), hearing the caller's
//! abort signals ([`signals`]), and end as [`settle::Ended`]. It makes no protocol decision. The JS
//! exports (`crate::bind`) and the Rust API (`crate::api`) are thin layers over it.

pub mod callbacks;
pub mod calls;
pub mod client;
pub mod clock;
pub mod end;
pub mod inbox;
pub mod interop;
pub mod invalid;
#[cfg(feature = "journal")]
pub mod journal;
pub mod js_client;
pub mod live;
pub mod millis;
pub mod options;
pub mod reply;
pub mod run;
pub mod signals;
pub mod slice;
pub mod start;
pub mod timer;
