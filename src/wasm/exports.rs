//! The module's exports. The engine entry points (`startRun`, with `feedRun` and `dropRun` in
//! `runs`) are internal: `js/run.js` checks every argument of the public async functions, passes the
//! options as numbers, and drives the run. `helper` serves the synchronous functions of
//! `js/checks.js` (`capabilities`, `serverSupports`, `validate*`).

use super::runs::register;
use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallOptions, CallTool};
use crate::engine::options::{
    Bounds, HandlerSet, InputMode, Retry, WaitOptions, DEFAULT_LISTEN_CHECK_MS, DEFAULT_MAX_POLL_INTERVAL_MS,
    DEFAULT_MIN_POLL_INTERVAL_MS, DEFAULT_POLL_INTERVAL_MS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS,
};
use crate::engine::step::Step;
use crate::engine::wait::{read_seed, Wait};
use crate::engine::Machine;
use crate::json::Json;
use crate::proto::input::{check_create_message_result, check_elicit_result, check_list_roots_result};
use crate::proto::request::{server_supports, with_tasks_extension, Call};
use wasm_bindgen::prelude::*;

thread_local! {
    /// The declaration of a client without `clientCapabilities`: one frozen object for every call.
    static DEFAULT_CAPABILITIES: JsValue = super::rt::deep_freeze(&with_tasks_extension(None));
}

/// The numeric options `js/run.js` passes, by index (NaN: not given).
mod at {
    pub const NOW: u32 = 0;
    pub const TIMEOUT: u32 = 1;
    pub const REQUEST_TIMEOUT: u32 = 2;
    /// 0 the handlers, 1 "return", 2 the input function.
    pub const INPUT: u32 = 3;
    /// The handlers given: 1 form, 2 url, 4 sampling, 8 roots.
    pub const HANDLERS: u32 = 4;
    pub const RETRIES: u32 = 5;
    pub const SEED: u32 = 6;
    pub const POLL: u32 = 7;
    pub const MIN_POLL: u32 = 8;
    pub const MAX_POLL: u32 = 9;
    pub const LISTEN_CHECK: u32 = 10;
    /// 1 cancelOnAbort, 2 listen.
    pub const FLAGS: u32 = 11;
}

/// The numeric options of one call: a JS array of numbers (checked by `js/run.js`: durations are
/// non-negative numbers or Infinity, retries whole numbers), read item by item (an array passed as a
/// `&[f64]` would need its own copying glue on both sides).
struct Nums<'a>(&'a JsValue);

impl Nums<'_> {
    /// The value at `i`, `None` when not given (NaN, or past the end).
    fn get(&self, i: u32) -> Option<f64> {
        super::rt::item_at(self.0, i).as_f64().filter(|n| !n.is_nan())
    }
    /// A duration: `None` not given, `Some(None)` Infinity (unbounded), else rounded up.
    fn millis(&self, i: u32) -> Option<Option<u64>> {
        self.get(i).map(|n| (n != f64::INFINITY).then(|| n.ceil() as u64))
    }
    /// A bounded duration, `default` when not given (or Infinity).
    fn millis_or(&self, i: u32, default: u64) -> u64 {
        self.millis(i).flatten().unwrap_or(default)
    }
    fn bits(&self, i: u32) -> u32 {
        self.get(i).unwrap_or(0.0) as u32
    }
    fn now(&self) -> u64 {
        self.get(at::NOW).unwrap_or(0.0) as u64
    }
    fn bounds(&self) -> Bounds {
        Bounds {
            timeout_ms: self.millis(at::TIMEOUT).unwrap_or(Some(DEFAULT_TIMEOUT_MS)),
            request_timeout_ms: self.millis(at::REQUEST_TIMEOUT).flatten(),
        }
    }
    fn input(&self) -> InputMode {
        let h = self.bits(at::HANDLERS);
        match self.bits(at::INPUT) {
            1 => InputMode::Return,
            2 => InputMode::Function,
            _ => InputMode::Handlers(HandlerSet {
                form: h & 1 != 0,
                url: h & 2 != 0,
                sampling: h & 4 != 0,
                roots: h & 8 != 0,
            }),
        }
    }
    fn retry(&self) -> Retry {
        Retry {
            retries: self.get(at::RETRIES).map_or(DEFAULT_RETRIES, |n| n as u32),
            seed: self.get(at::SEED).unwrap_or(0.0) as u64,
        }
    }
    fn call(&self, input_responses: JsValue, request_state: JsValue) -> CallOptions<JsValue> {
        CallOptions {
            bounds: self.bounds(),
            input: self.input(),
            input_responses: given(input_responses),
            request_state: given(request_state),
        }
    }
    fn wait(&self) -> Result<WaitOptions, String> {
        let max_poll = self.millis_or(at::MAX_POLL, DEFAULT_MAX_POLL_INTERVAL_MS);
        let flags = self.bits(at::FLAGS);
        let opts = WaitOptions {
            bounds: self.bounds(),
            poll_interval_ms: self.millis_or(at::POLL, DEFAULT_POLL_INTERVAL_MS),
            // The floor's default never exceeds a ceiling the caller set lower.
            min_poll_interval_ms: self.millis_or(at::MIN_POLL, DEFAULT_MIN_POLL_INTERVAL_MS.min(max_poll)),
            max_poll_interval_ms: max_poll,
            retry: self.retry(),
            listen_check_ms: self.millis_or(at::LISTEN_CHECK, DEFAULT_LISTEN_CHECK_MS),
            cancel_on_abort: flags & 1 != 0,
            input: self.input(),
            listen: flags & 2 != 0,
        };
        if opts.min_poll_interval_ms > opts.max_poll_interval_ms {
            return Err("minPollIntervalMs must not exceed maxPollIntervalMs".to_owned());
        }
        Ok(opts)
    }
}

/// `None` for `undefined`.
fn given(v: JsValue) -> Option<JsValue> {
    (!v.is_undefined()).then_some(v)
}

/// What a client's requests declare: its `clientCapabilities` (checked readable by `js/run.js`)
/// merged with the tasks extension, or the shared default.
fn declared(capabilities: JsValue) -> JsValue {
    match given(capabilities) {
        Some(c) => with_tasks_extension(Some(&c)),
        None => DEFAULT_CAPABILITIES.with(Clone::clone),
    }
}

/// The `answered` option of `awaitTask`: `[{key, answer?}]`, the input keys answered before this wait
/// (e.g. before a restart). They are never asked; an `answer` given (one not yet acknowledged) is sent
/// once, without asking, if a status still lists its key.
fn read_answered(list: JsValue) -> Result<Vec<(String, Option<JsValue>)>, String> {
    const WANT: &str = "answered must be an array of {key, answer?} with non-empty string keys";
    let Some(list) = given(list) else { return Ok(Vec::new()) };
    let items = list.items().ok_or(WANT)?;
    items
        .iter()
        .map(|item| match item.get_str("key") {
            Some(key) if !key.is_empty() => Ok((key, item.get("answer"))),
            _ => Err(WANT.to_owned()),
        })
        .collect()
}

/// Starts a run and returns its handle, or the message of the `TypeError` to reject with. `kind`:
/// 0 `callTool` (`text` the tool name; `a` the arguments, `b` the `inputResponses`, `c` the
/// `requestState`, undefined when not given), 1 `awaitTask` (`a` the task id or status, `b` the
/// `answered` option), 2 `callAndAwait` (as `callTool`; `wait` the wait's numbers), 3 `getTask`,
/// 4 `updateTask` (`a` the responses), 5 `cancelTask` (`text` the task id). `capabilities`: the
/// client's `clientCapabilities` (undefined: none).
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = startRun, skip_typescript)]
pub fn start_run(
    kind: u32,
    text: JsValue,
    a: JsValue,
    b: JsValue,
    c: JsValue,
    capabilities: JsValue,
    nums: JsValue,
    wait: JsValue,
) -> JsValue {
    super::install_panic_hook();
    let text = text.as_string().unwrap_or_default();
    let n = Nums(&nums);
    let machine = || -> Result<Box<dyn Machine<JsValue>>, String> {
        Ok(match kind {
            0 => Box::new(CallTool::new(text, given(a), n.call(b, c), n.now())),
            1 => {
                let answered = read_answered(b)?;
                Box::new(Wait::resume(read_seed(a)?, n.wait()?, &answered, n.now())?)
            }
            2 => {
                let wait_opts = Nums(&wait).wait()?;
                Box::new(CallAndAwait::new(text, given(a), n.call(b, c), wait_opts, n.now()))
            }
            _ => {
                let call = match kind {
                    3 => Call::GetTask { task_id: text.clone() },
                    4 => Call::UpdateTaskRaw { task_id: text.clone(), responses: a },
                    _ => Call::CancelTask { task_id: text.clone() },
                };
                Box::new(Step::new(call, text, n.bounds(), n.retry(), n.now()))
            }
        })
    };
    match machine() {
        Ok(m) => JsValue::from_f64(f64::from(register(m, declared(capabilities)))),
        Err(m) => JsValue::from_str(&m),
    }
}

/// The synchronous helpers `js/checks.js` exports, by `kind`: 0 `capabilities(base)` (`base`
/// deep-merged with `{extensions: {"io.modelcontextprotocol/tasks": {}}}`, not modified), 1
/// `serverSupports(value)`, 2 `validateElicitResult`, 3 `validateCreateMessageResult`, 4
/// `validateListRootsResult` (`{tag: "ok"}` or `{tag: "error", message}`). One export for all: each
/// export costs the module a wasm-bindgen shim.
#[wasm_bindgen(js_name = helper, skip_typescript)]
pub fn helper(kind: u32, value: JsValue) -> JsValue {
    super::install_panic_hook();
    let checked = match kind {
        0 => return with_tasks_extension(Some(&value)),
        1 => return JsValue::from_bool(server_supports(&value)),
        2 => check_elicit_result(&value),
        3 => check_create_message_result(&value),
        _ => check_list_roots_result(&value),
    };
    match checked {
        Ok(()) => JsValue::object(vec![("tag", "ok".into())]),
        Err(m) => JsValue::object(vec![("tag", "error".into()), ("message", JsValue::from_str(&m))]),
    }
}
