//! Reading the JS-supplied client (`TasksClient`) and the options objects of the exported functions.
//! Bad caller input is a `String` message; the exports turn it into a `TypeError` rejection.

use crate::engine::options::{Bounds, HandlerSet, InputMode, Retry, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS};
use crate::json::{Json, Kind};
use crate::proto::input::InputKind;
use crate::proto::request::with_tasks_extension;
use js_sys::Function;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

thread_local! {
    static DEFAULT_CAPABILITIES: JsValue = super::rt::deep_freeze(&with_tasks_extension(None));
    /// The client without `clientCapabilities` read last: the next call on the same unchanged client
    /// shares it (thousands of waits on one client hold one copy).
    static LAST: RefCell<Option<Rc<JsClient>>> = const { RefCell::new(None) };
}

/// The parts of a client the shell uses.
pub struct JsClient {
    /// The client object (`this` for its functions).
    pub object: JsValue,
    /// `request(method, params, {timeoutMs?, signal})`.
    pub request: Function,
    /// `listen(params, {signal})`, when present.
    pub listen: Option<Function>,
    /// The client's capabilities merged with the tasks extension declaration.
    pub capabilities: JsValue,
    /// The client's default per-request timeout.
    pub request_timeout_ms: Option<u64>,
    /// `inputHandlers` (an object, or undefined).
    pub handlers: JsValue,
}

impl JsClient {
    /// Reads a duck-typed client, sharing the previous call's reading when it is the same client
    /// without `clientCapabilities` and every field read is the same value as then (a client with
    /// capabilities is read afresh: its capabilities object may have changed inside).
    pub fn read_shared(value: &JsValue) -> Result<Rc<Self>, String> {
        let (fresh, own_caps) = Self::read_parts(value)?;
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if own_caps {
                return Ok(Rc::new(fresh));
            }
            if let Some(c) = last.as_ref() {
                let same = c.object == fresh.object
                    && c.request == fresh.request
                    && c.listen == fresh.listen
                    && c.handlers == fresh.handlers
                    && c.request_timeout_ms == fresh.request_timeout_ms;
                if same {
                    return Ok(c.clone());
                }
            }
            let c = Rc::new(fresh);
            *last = Some(c.clone());
            Ok(c)
        })
    }

    /// Reads a duck-typed client: any object with a `request` function; `true` when it has its own
    /// `clientCapabilities`.
    fn read_parts(value: &JsValue) -> Result<(Self, bool), String> {
        if !value.is_object() {
            return Err("the client must be an object with a request function".to_owned());
        }
        let request = function(value, "request")?.ok_or("the client has no request function")?;
        let listen = function(value, "listen")?;
        let raw_caps = value.get("clientCapabilities");
        let own_caps = raw_caps.is_some();
        let capabilities = match raw_caps {
            // One frozen declaration shared by every call of a client without capabilities.
            None => DEFAULT_CAPABILITIES.with(Clone::clone),
            Some(c) if c.is_object() && c.keys().is_some() => with_tasks_extension(Some(&c)),
            Some(c) if c.is_object() => return Err("client.clientCapabilities cannot be read".to_owned()),
            Some(_) => return Err("client.clientCapabilities must be an object".to_owned()),
        };
        let request_timeout_ms = millis(value, "requestTimeoutMs", None)?;
        let handlers = value.get("inputHandlers").unwrap_or(JsValue::UNDEFINED);
        Ok((Self { object: value.clone(), request, listen, capabilities, request_timeout_ms, handlers }, own_caps))
    }

    /// The handler for `kind`, when the application supplied one.
    pub fn handler(handlers: &JsValue, kind: InputKind) -> Option<Function> {
        handlers.get(kind.handler_name()).and_then(|f| f.dyn_into::<Function>().ok())
    }
}

/// The options object of an exported function (`undefined` reads as `{}`).
pub struct Opts(JsValue);

impl Opts {
    /// Wraps `value`; anything but an object or `undefined`/`null` is refused.
    pub fn read(value: JsValue, what: &str) -> Result<Self, String> {
        if value.is_undefined() || value.is_null() {
            Ok(Self(JsValue::UNDEFINED))
        } else if value.kind() == Kind::Object {
            Ok(Self(value))
        } else {
            Err([what, " must be an object"].concat())
        }
    }

    /// The raw value under `key`.
    pub fn get(&self, key: &str) -> Option<JsValue> {
        self.0.get(key)
    }

    /// The time bounds: `timeoutMs` (default 60000, `Infinity` for none) and `requestTimeoutMs`
    /// (default: the client's).
    pub fn bounds(&self, client: &JsClient) -> Result<Bounds, String> {
        Ok(Bounds {
            timeout_ms: millis(&self.0, "timeoutMs", Some(DEFAULT_TIMEOUT_MS))?,
            request_timeout_ms: match self.0.get("requestTimeoutMs") {
                None => client.request_timeout_ms,
                Some(_) => millis(&self.0, "requestTimeoutMs", None)?,
            },
        })
    }

    /// A duration option (a non-negative number of milliseconds).
    pub fn millis_or(&self, key: &str, default: u64) -> Result<u64, String> {
        Ok(millis(&self.0, key, Some(default))?.unwrap_or(default))
    }

    /// A boolean option (default false).
    pub fn flag(&self, key: &str) -> Result<bool, String> {
        match self.0.get(key) {
            None => Ok(false),
            Some(v) => v.as_bool().ok_or_else(|| [key, " must be a boolean"].concat()),
        }
    }

    /// A function option.
    pub fn function(&self, key: &str) -> Result<Option<Function>, String> {
        function(&self.0, key)
    }

    /// The `signal` option: an `AbortSignal` (duck-typed: `aborted` and `addEventListener`).
    pub fn signal(&self) -> Result<Option<JsValue>, String> {
        match self.0.get("signal") {
            None => Ok(None),
            Some(s) if s.get("aborted").is_some() && function(&s, "addEventListener")?.is_some() => Ok(Some(s)),
            Some(_) => Err("signal must be an AbortSignal".to_owned()),
        }
    }

    /// The `retries` option (default 3): a whole number of re-issues, at least 0; and the jitter seed.
    pub fn retry(&self, seed: u64) -> Result<Retry, String> {
        let retries = match self.0.get("retries") {
            None => DEFAULT_RETRIES,
            Some(v) => match v.as_f64() {
                Some(n) if n >= 0.0 && n.fract() == 0.0 && n <= f64::from(u32::MAX) => n as u32,
                _ => return Err("retries must be a whole number, at least 0".to_owned()),
            },
        };
        Ok(Retry { retries, seed })
    }

    /// The `input` option: `"handlers"` (default), `"return"`, or a function; and the handlers
    /// object to use (`inputHandlers` of the options, else the client's).
    pub fn input(&self, client: &JsClient) -> Result<(InputMode, Option<Function>, JsValue), String> {
        let handlers = match self.0.get("inputHandlers") {
            Some(h) if h.is_object() => h,
            Some(_) => return Err("inputHandlers must be an object".to_owned()),
            None => client.handlers.clone(),
        };
        let set = HandlerSet {
            form: JsClient::handler(&handlers, InputKind::Form).is_some(),
            url: JsClient::handler(&handlers, InputKind::Url).is_some(),
            sampling: JsClient::handler(&handlers, InputKind::Sampling).is_some(),
            roots: JsClient::handler(&handlers, InputKind::Roots).is_some(),
        };
        match self.0.get("input") {
            None => Ok((InputMode::Handlers(set), None, handlers)),
            Some(v) => match (v.as_string().as_deref(), v.dyn_into::<Function>()) {
                (Some("handlers"), _) => Ok((InputMode::Handlers(set), None, handlers)),
                (Some("return"), _) => Ok((InputMode::Return, None, handlers)),
                (_, Ok(f)) => Ok((InputMode::Function, Some(f), handlers)),
                _ => Err("input must be \"handlers\", \"return\" or a function".to_owned()),
            },
        }
    }
}

/// A function property, or `None` when absent; an error when present but not a function.
fn function(obj: &JsValue, key: &str) -> Result<Option<Function>, String> {
    match obj.get(key) {
        None => Ok(None),
        Some(v) => v.dyn_into::<Function>().map(Some).map_err(|_| [key, " must be a function"].concat()),
    }
}

/// A duration property in milliseconds: absent → `default`, `Infinity` → `None` (unbounded),
/// a finite non-negative number → rounded up.
fn millis(obj: &JsValue, key: &str, default: Option<u64>) -> Result<Option<u64>, String> {
    match obj.get(key) {
        None => Ok(default),
        Some(v) => match v.as_f64() {
            Some(n) if n == f64::INFINITY => Ok(None),
            Some(n) if n >= 0.0 && n.is_finite() => Ok(Some(n.ceil() as u64)),
            _ => Err([key, " must be a non-negative number of milliseconds (or Infinity)"].concat()),
        },
    }
}
