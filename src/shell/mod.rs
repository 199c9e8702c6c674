//! The async Rust shell around the engine: typed async functions ([`api`]) that run the engine's
//! machines against a [`client::Client`] — JS-supplied request functions — on the module's one gloo
//! timer ([`timer`]), hearing the caller's abort signals ([`signals`]), and settling with the
//! engine's outcome. It makes no protocol decision. The JS exports (`crate::bind`) are thin bindings
//! over it.

pub mod api;
pub mod client;
pub mod clock;
pub mod hooks;
pub mod inbox;
#[cfg(feature = "journal")]
pub mod journal;
pub mod live;
pub mod options;
pub mod outcome;
pub mod reply;
pub mod run;
pub mod settle;
pub mod signals;
pub mod slice;
pub mod timer;
pub mod values;
