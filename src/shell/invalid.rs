//! An invalid argument of a call, found before anything is sent: both APIs reject with the
//! `TypeError` "function: message" ([`InvalidArgument::rejection`]). An invalid argument is made by the kind it is
//! ([`InvalidArgument::rule`], [`InvalidArgument::field`], [`InvalidArgument::empty`], [`InvalidArgument::task`]), each kind with one
//! way to say it, assembled without `core::fmt`; it carries its message (a static one is not
//! copied). (An enum of the kinds, measured: +0.5 KB gzip, its values three times the size to move
//! through every reader's `Result`.)

use super::end::Rejection;
use std::borrow::Cow;

/// An invalid argument of a call, with its message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InvalidArgument(Cow<'static, str>);

impl InvalidArgument {
    /// `updateTask`'s responses that are not a map (the same message in both APIs).
    pub(crate) const RESPONSES: InvalidArgument = InvalidArgument::rule("responses must be an object (key → response)");

    /// A rule broken, in its one message (e.g. "options must be an object").
    pub(crate) const fn rule(message: &'static str) -> Self {
        Self(Cow::Borrowed(message))
    }

    /// A field that is not what it must be: "`field` `rule`" ("retries" + "must be a whole number, at
    /// least 0").
    pub(crate) fn field(field: &'static str, rule: &'static str) -> Self {
        Self(Cow::Owned([field, " ", rule].concat()))
    }

    /// An argument that must be a non-empty string: "the `what` must be a non-empty string" (the JS
    /// face's names and task ids; Rust's are `&str`).
    #[cfg(feature = "js")]
    pub(crate) fn empty(what: &'static str) -> Self {
        Self(Cow::Owned(["the ", what, " must be a non-empty string"].concat()))
    }

    /// The task to await is not one: what the protocol's reading of it found.
    pub(crate) fn task(message: String) -> Self {
        Self(Cow::Owned(message))
    }

    /// The message.
    pub(crate) fn message(&self) -> &str {
        &self.0
    }

    /// The rejection "`what`: message" (`what`: the JS function's name): JS rejects with it as a
    /// `TypeError`, Rust as `Error::InvalidArgument`.
    pub(crate) fn rejection(&self, what: &str) -> Rejection {
        Rejection::InvalidArgument([what, ": ", &self.0].concat())
    }
}
