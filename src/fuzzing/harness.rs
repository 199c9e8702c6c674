//! A deterministic world for the engine's machines, shared by the property tests
//! (`tests/engine_props.rs`) and the fuzzer (`tests/fuzz`).
//!
//! Input is plain bytes, decoded with `arbitrary` into a [`Scenario`]: which machine runs, with which
//! (small) options, then a list of [`Move`]s of the server, the application and the clock. Each move
//! applies to the oldest (or newest) pending thing — a request in flight, a running ask, the open
//! listen stream — or to time, which only moves forward and fires the machine's `wake_at` on the way.
//! There is no clock and no randomness other than the input, so the same bytes replay the same run.
//!
//! After every step the [`World`] checks the engine's contract (see [`World::check`] and the action
//! checks in [`World::on_action`]) and panics with the broken rule, the time and the recent history.

#![allow(clippy::panic)] // a broken invariant is a panic, by design: libFuzzer and proptest catch it
#![allow(clippy::indexing_slicing)] // its own JSON, built just before it is indexed
#![allow(dead_code)] // the fuzz target and the property tests each use a different part

use crate::engine::both::CallAndAwait;
use crate::engine::call::{CallSettings, CallTool};
use crate::engine::settings::{
    HandlerSet, InputMode, ReadChunk, Retry, TimeLimits, WaitSettings, DETACHED_CANCEL_TIMEOUT_MS,
};
use crate::engine::step::Step;
use crate::engine::wait::{TaskRef, Wait};
use crate::engine::{AbortScope, Action, AskId, End, Event, Machine, Outcome, ReqId, StreamEvent};
use crate::proto::input::{read_input_request, InputKind};
use crate::proto::request::Call;
use crate::proto::rpc::{read_rejection, RequestEnd};
use arbitrary::{Arbitrary, Unstructured};
use serde_json::{json, Map, Value};
use std::fmt::Write as _;

/// The task every scenario is about.
pub(crate) const TASK: &str = "t1";
/// Most moves one scenario plays (the rest of a long input is ignored).
pub(crate) const MAX_MOVES: usize = 200;
/// Ticks one time move may fire; past it the clock stops early (a budget of the harness, not a rule).
pub(crate) const TICK_BUDGET: usize = 2_000;
/// Ticks at one instant, in a row, that count as a livelock (each must make progress).
pub(crate) const SAME_INSTANT_TICKS: usize = 64;
/// Actions one step may produce before it counts as endless.
pub(crate) const ACTION_BUDGET: usize = 10_000;
/// The longest a single `Wake` move jumps.
const DAY: u64 = 86_400_000;
/// History lines kept for a violation's message.
const HISTORY: usize = 48;

// ---------------------------------------------------------------------------------------------------
// Input: what the bytes decode to.
// ---------------------------------------------------------------------------------------------------

/// One generated world: the machine, its options and the moves played against it.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Which machine runs.
    pub subject: Subject,
    /// Its options.
    pub opts: Opts,
    /// What happens, in order.
    pub moves: Vec<Move>,
}

impl Scenario {
    /// Decodes `data` (any bytes decode; short input gives zero-filled defaults).
    pub fn decode(data: &[u8]) -> Self {
        let mut u = Unstructured::new(data);
        let subject = Subject::arbitrary(&mut u).unwrap_or(Subject::WaitId);
        let opts = Opts::arbitrary(&mut u).unwrap_or_default();
        let mut moves = Vec::new();
        while !u.is_empty() && moves.len() < MAX_MOVES {
            match Move::arbitrary(&mut u) {
                Ok(m) => moves.push(m),
                Err(_) => break,
            }
        }
        Self { subject, opts, moves }
    }
}

/// Which machine a scenario drives.
#[derive(Clone, Debug)]
pub enum Subject {
    /// `awaitTask` with a bare task id.
    WaitId,
    /// `awaitTask` with a status task (possibly broken: the machine then refuses to start).
    WaitSeed(StatusSpec),
    /// `awaitTask` resumed with keys answered before (`Some` answer: sent once without asking).
    Resume {
        /// The task (`None`: the bare id).
        task: Option<StatusSpec>,
        /// The keys answered before, and whether the answer is still to be sent.
        answered: Vec<(Key, bool)>,
    },
    /// `callTool` alone.
    CallTool,
    /// `callAndAwait`: the call, then the wait on the task it creates.
    CallAndAwait,
    /// `callAndAwait` whose call's bound bounds the whole (the wait's options set none).
    CallAndAwaitWhole,
    /// `getTask`.
    GetTask,
    /// `cancelTask`.
    CancelTask,
    /// `updateTask` (never re-issued).
    UpdateTask,
}

impl<'a> Arbitrary<'a> for Subject {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=63 => Self::WaitId,
            64..=114 => Self::WaitSeed(StatusSpec::arbitrary(u)?),
            115..=140 => Self::Resume { task: Option::arbitrary(u)?, answered: Vec::arbitrary(u)? },
            141..=204 => Self::CallAndAwait,
            205..=229 => Self::CallTool,
            230..=238 => Self::GetTask,
            239..=247 => Self::CancelTask,
            248..=251 => Self::UpdateTask,
            _ => Self::CallAndAwaitWhole,
        })
    }
}

/// The options of every machine, in small values.
#[derive(Arbitrary, Clone, Copy, Debug, Default)]
pub struct Opts {
    /// `timeoutMs`.
    pub timeout: Deadline,
    /// `requestTimeoutMs` (`None`: unset).
    #[arbitrary(with = request_bound)]
    pub request_timeout: Option<Dur>,
    /// `pollIntervalMs`.
    pub poll: Dur,
    /// `minPollIntervalMs` (swapped with the maximum when above it: the shell refuses that).
    pub min_poll: Dur,
    /// `maxPollIntervalMs`.
    pub max_poll: Dur,
    /// `retries` (taken modulo 5).
    pub retries: u8,
    /// The backoff jitter seed.
    pub seed: u64,
    /// `listenCheckMs`.
    pub listen_check: Dur,
    /// `listen`.
    pub listen: bool,
    /// `cancelOnAbort`.
    pub cancel_on_abort: bool,
    /// `input`.
    pub input: InputSpec,
}

/// A request bound: mostly unset, sometimes seconds, rarely tiny.
fn request_bound(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<Dur>> {
    Ok(match u8::arbitrary(u)? {
        0..=149 => None,
        150..=229 => Some(Dur::Raw(u16::arbitrary(u)?)),
        _ => Some(Dur::arbitrary(u)?),
    })
}

/// A whole-call bound.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Deadline {
    /// The default (60 s).
    #[default]
    Default,
    /// `Infinity`.
    Unbounded,
    /// This many ms.
    Ms(Dur),
}

impl<'a> Arbitrary<'a> for Deadline {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=99 => Self::Default,
            100..=149 => Self::Unbounded,
            _ => Self::Ms(Dur::arbitrary(u)?),
        })
    }
}

/// A duration from a small table (or raw), in ms.
#[derive(Arbitrary, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dur {
    /// 0.
    #[default]
    Zero,
    /// 1.
    One,
    /// 0–255.
    Small(u8),
    /// 100.
    Hundred,
    /// 250 (the first backoff).
    Quarter,
    /// 1000.
    Second,
    /// 0–255 s.
    Seconds(u8),
    /// 60 000.
    Minute,
    /// 0–65 535.
    Raw(u16),
    /// An hour.
    Hour,
}

impl Dur {
    /// A clock step: mostly short, sometimes seconds, rarely a minute or an hour.
    pub fn step(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=159 => Self::Small(u8::arbitrary(u)?),
            160..=219 => Self::Raw(u16::arbitrary(u)? % 5_000),
            220..=239 => Self::Seconds(u8::arbitrary(u)?),
            240..=247 => Self::Minute,
            248..=251 => Self::Raw(u16::arbitrary(u)?),
            _ => Self::Hour,
        })
    }

    /// The duration in ms.
    pub fn ms(self) -> u64 {
        match self {
            Self::Zero => 0,
            Self::One => 1,
            Self::Small(n) => u64::from(n),
            Self::Hundred => 100,
            Self::Quarter => 250,
            Self::Second => 1_000,
            Self::Seconds(n) => 1_000 * u64::from(n),
            Self::Minute => 60_000,
            Self::Raw(n) => u64::from(n),
            Self::Hour => 3_600_000,
        }
    }
}

/// The `input` option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputSpec {
    /// `"handlers"`, with these handlers present.
    Handlers {
        /// `form`.
        form: bool,
        /// `url`.
        url: bool,
        /// `sampling`.
        sampling: bool,
        /// `roots`.
        roots: bool,
    },
    /// `"return"`.
    Return,
    /// An input function.
    Function,
}

impl Default for InputSpec {
    fn default() -> Self {
        Self::Handlers { form: true, url: true, sampling: true, roots: true }
    }
}

impl<'a> Arbitrary<'a> for InputSpec {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=127 => Self::default(),
            128..=183 => Self::Handlers {
                form: bool::arbitrary(u)?,
                url: bool::arbitrary(u)?,
                sampling: bool::arbitrary(u)?,
                roots: bool::arbitrary(u)?,
            },
            184..=233 => Self::Function,
            _ => Self::Return,
        })
    }
}

impl InputSpec {
    fn mode(self) -> InputMode {
        match self {
            Self::Handlers { form, url, sampling, roots } => {
                InputMode::Handlers(HandlerSet { form, url, sampling, roots })
            }
            Self::Return => InputMode::Return,
            Self::Function => InputMode::Function,
        }
    }
}

/// An input key, from the alphabet `a`, `b`, `c`.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key(pub u8);

impl Key {
    /// The key string.
    pub fn name(self) -> &'static str {
        ["a", "b", "c"].get(usize::from(self.0 % 3)).copied().unwrap_or("a")
    }
}

/// A number a server sends (`pollIntervalMs`, `ttlMs`, `retryAfterMs`), including hostile ones.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    /// 0.
    Zero,
    /// −250.
    Negative,
    /// A duration from the table.
    Ms(Dur),
    /// 0.5.
    Fraction,
    /// 1e300.
    Huge,
    /// `u64::MAX`.
    Max,
    /// `"100"` (not a number).
    Text,
    /// `null`.
    Null,
}

impl Num {
    fn json(self) -> Value {
        match self {
            Self::Zero => json!(0),
            Self::Negative => json!(-250),
            Self::Ms(d) => json!(d.ms()),
            Self::Fraction => json!(0.5),
            Self::Huge => json!(1e300),
            Self::Max => json!(u64::MAX),
            Self::Text => json!("100"),
            Self::Null => Value::Null,
        }
    }
}

/// An RFC 3339 timestamp from a small table (a few do not parse).
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp(pub u8);

const STAMPS: [&str; 9] = [
    "2026-09-01T08:00:00Z",
    "2026-09-01T08:00:01Z",
    "2026-09-01T08:00:00.500+00:00",
    "2026-09-01T08:01:00Z",
    "2026-09-01T09:00:00Z",
    "2026-09-01T07:59:59Z",
    "2026-09-01T10:00:02+02:00",
    "not a time",
    "",
];

impl Stamp {
    fn json(self) -> Value {
        json!(STAMPS.get(usize::from(self.0) % STAMPS.len()).copied().unwrap_or_default())
    }
}

/// The `taskId` of a status: mostly this task.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct IdSpec(pub u8);

impl IdSpec {
    fn json(self) -> Option<Value> {
        match self.0 {
            0..=215 => Some(json!(TASK)),
            216..=235 => Some(json!("t2")),
            236..=243 => None,
            244..=249 => Some(json!("")),
            _ => Some(json!(7)),
        }
    }
}

/// The `status` of a status (mostly one of the five states).
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateSpec(pub u8);

impl StateSpec {
    fn json(self) -> Option<Value> {
        let s = match self.0 {
            0..=69 => "working",
            70..=139 => "input_required",
            140..=179 => "completed",
            180..=204 => "failed",
            205..=229 => "cancelled",
            230..=243 => "garbage",
            244..=249 => return None,
            _ => return Some(json!(3)),
        };
        Some(json!(s))
    }
}

/// The envelope of a result: its `resultType`, read per method (see [`World::result_for`]).
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope(pub u8);

/// One `inputRequests` entry.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestSpec {
    /// A form elicitation.
    Form,
    /// A form elicitation without `mode`.
    FormNoMode,
    /// A url elicitation with a good URL.
    UrlGood,
    /// A url elicitation with a `javascript:` URL.
    UrlBad,
    /// A url elicitation whose URL carries credentials.
    UrlCredentials,
    /// A sampling request.
    Sampling,
    /// A sampling request without params.
    SamplingNoParams,
    /// A roots request.
    Roots,
    /// A roots request without params.
    RootsNoParams,
    /// An unknown method.
    UnknownMethod,
    /// An elicitation in an unknown mode.
    UnknownMode,
    /// No `method`.
    NoMethod,
    /// Not an object.
    NotObject,
    /// `params` that are not an object.
    ParamsNotObject,
}

impl RequestSpec {
    /// A well-formed request.
    fn coherent(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        let all = [Self::Form, Self::FormNoMode, Self::UrlGood, Self::Sampling, Self::Roots, Self::RootsNoParams];
        Ok(all.get(usize::from(u8::arbitrary(u)?) % all.len()).copied().unwrap_or(Self::Form))
    }

    fn json(self) -> Value {
        let elicit = |params: Value| json!({"method": "elicitation/create", "params": params});
        let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}});
        match self {
            Self::Form => elicit(json!({"mode": "form", "message": "Name?", "requestedSchema": schema})),
            Self::FormNoMode => elicit(json!({"message": "Name?", "requestedSchema": schema})),
            Self::UrlGood => {
                elicit(json!({"mode": "url", "message": "Go", "url": "https://ok.example/a", "elicitationId": "e"}))
            }
            Self::UrlBad => elicit(json!({"mode": "url", "message": "Go", "url": "javascript:alert(1)"})),
            Self::UrlCredentials => {
                elicit(json!({"mode": "url", "message": "Go", "url": "https://good.example@evil.example"}))
            }
            Self::Sampling => json!({"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}),
            Self::SamplingNoParams => json!({"method": "sampling/createMessage"}),
            Self::Roots => json!({"method": "roots/list", "params": {}}),
            Self::RootsNoParams => json!({"method": "roots/list"}),
            Self::UnknownMethod => json!({"method": "weird/thing", "params": {}}),
            Self::UnknownMode => elicit(json!({"mode": "telepathy", "message": "?"})),
            Self::NoMethod => json!({"params": {}}),
            Self::NotObject => json!("please"),
            Self::ParamsNotObject => json!({"method": "roots/list", "params": [1]}),
        }
    }
}

/// `inputRequests`.
#[derive(Arbitrary, Clone, Debug, PartialEq, Eq)]
pub enum RequestsSpec {
    /// An object of entries (at most four are used).
    Entries(Vec<(Key, RequestSpec)>),
    /// `null`.
    Null,
    /// Not an object.
    NotObject,
}

impl RequestsSpec {
    fn json(&self) -> Value {
        match self {
            Self::Entries(e) => Value::Object(e.iter().take(4).map(|(k, r)| (k.name().to_owned(), r.json())).collect()),
            Self::Null => Value::Null,
            Self::NotObject => json!(["a"]),
        }
    }
}

/// A JSON-RPC error code.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Code {
    /// −32602 (unknown or expired task).
    InvalidParams,
    /// −32603.
    Internal,
    /// −32601.
    MethodNotFound,
    /// −32600.
    InvalidRequest,
    /// −32000.
    Server,
    /// Anything.
    Other(i16),
}

impl Code {
    fn code(self) -> i64 {
        match self {
            Self::InvalidParams => -32602,
            Self::Internal => -32603,
            Self::MethodNotFound => -32601,
            Self::InvalidRequest => -32600,
            Self::Server => -32000,
            Self::Other(n) => i64::from(n),
        }
    }
}

/// A JSON-RPC error object.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ErrSpec {
    /// Its code.
    pub code: Code,
    /// With `data`.
    pub data: bool,
}

impl ErrSpec {
    fn json(self) -> Value {
        let mut e = json!({"code": self.code.code(), "message": "refused"});
        if self.data {
            e["data"] = json!({"why": "because"});
        }
        e
    }
}

/// The `error` of a failed task.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusError {
    /// A JSON-RPC error.
    Rpc(ErrSpec),
    /// Something else.
    NotRpc,
}

/// The `result` of a completed task.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payload {
    /// A CallToolResult.
    Object,
    /// Not an object.
    NotObject,
}

/// A task status as a server would send it (every field optional and possibly hostile).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusSpec {
    /// `taskId`.
    pub id: IdSpec,
    /// `status`.
    pub state: StateSpec,
    /// `resultType` of the envelope.
    pub envelope: Envelope,
    /// `pollIntervalMs`.
    pub poll: Option<Num>,
    /// `ttlMs`.
    pub ttl: Option<Num>,
    /// `createdAt`.
    pub created: Option<Stamp>,
    /// `lastUpdatedAt`.
    pub updated: Option<Stamp>,
    /// `statusMessage` (one of three).
    pub message: Option<u8>,
    /// `inputRequests`.
    pub requests: Option<RequestsSpec>,
    /// `result`.
    pub result: Option<Payload>,
    /// `error`.
    pub error: Option<StatusError>,
    /// `requestState` (MRTR answers of `tools/call` only).
    pub request_state: bool,
}

impl<'a> Arbitrary<'a> for StatusSpec {
    /// Seven in eight statuses are coherent (this task, a known state with its payload, well-formed
    /// requests); the rest are free-form (any field, any value).
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        if u8::arbitrary(u)? >= 224 {
            return Self::free(u);
        }
        let state = match u8::arbitrary(u)? {
            0..=114 => StateSpec(0),
            115..=214 => StateSpec(70),
            215..=229 => StateSpec(140),
            230..=241 => StateSpec(180),
            _ => StateSpec(205),
        };
        let requests = if state == StateSpec(70) && u8::arbitrary(u)? < 230 {
            let n = 1 + usize::from(u8::arbitrary(u)? % 3);
            let mut e = Vec::with_capacity(n);
            for _ in 0..n {
                e.push((Key::arbitrary(u)?, RequestSpec::coherent(u)?));
            }
            Some(RequestsSpec::Entries(e))
        } else {
            None
        };
        Ok(Self {
            id: IdSpec(0),
            state,
            envelope: Envelope(u8::arbitrary(u)? % 220),
            poll: Option::arbitrary(u)?,
            ttl: Option::arbitrary(u)?,
            created: Option::arbitrary(u)?,
            updated: Option::arbitrary(u)?,
            message: Option::arbitrary(u)?,
            requests,
            result: (state == StateSpec(140)).then_some(Payload::Object),
            error: if state == StateSpec(180) { Some(StatusError::Rpc(ErrSpec::arbitrary(u)?)) } else { None },
            request_state: bool::arbitrary(u)?,
        })
    }
}

impl StatusSpec {
    /// This task, `working`, nothing else (envelope 0: `"complete"` for `tasks/get`, a created task
    /// for `tools/call`).
    pub fn working() -> Self {
        Self {
            id: IdSpec(0),
            state: StateSpec(0),
            envelope: Envelope(0),
            poll: None,
            ttl: None,
            created: None,
            updated: None,
            message: None,
            requests: None,
            result: None,
            error: None,
            request_state: false,
        }
    }

    /// Any field, any value.
    fn free(u: &mut Unstructured<'_>) -> arbitrary::Result<Self> {
        Ok(Self {
            id: IdSpec::arbitrary(u)?,
            state: StateSpec::arbitrary(u)?,
            envelope: Envelope::arbitrary(u)?,
            poll: Option::arbitrary(u)?,
            ttl: Option::arbitrary(u)?,
            created: Option::arbitrary(u)?,
            updated: Option::arbitrary(u)?,
            message: Option::arbitrary(u)?,
            requests: Option::arbitrary(u)?,
            result: Option::arbitrary(u)?,
            error: Option::arbitrary(u)?,
            request_state: bool::arbitrary(u)?,
        })
    }

    /// The Task object (no envelope).
    pub fn object(&self) -> Map<String, Value> {
        let mut o = Map::new();
        let mut put = |k: &str, v: Option<Value>| {
            if let Some(v) = v {
                o.insert(k.to_owned(), v);
            }
        };
        put("taskId", self.id.json());
        put("status", self.state.json());
        put("statusMessage", self.message.map(|m| json!(format!("step {}", m % 3))));
        put("createdAt", self.created.map(Stamp::json));
        put("lastUpdatedAt", self.updated.map(Stamp::json));
        put("ttlMs", self.ttl.map(Num::json));
        put("pollIntervalMs", self.poll.map(Num::json));
        put("inputRequests", self.requests.as_ref().map(RequestsSpec::json));
        put(
            "result",
            self.result.map(|p| match p {
                Payload::Object => json!({"content": [{"type": "text", "text": "done"}]}),
                Payload::NotObject => json!("done"),
            }),
        );
        put(
            "error",
            self.error.map(|e| match e {
                StatusError::Rpc(e) => e.json(),
                StatusError::NotRpc => json!("it broke"),
            }),
        );
        o
    }
}

/// A transport failure (a rejection that is not a JSON-RPC error).
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub struct FailSpec {
    /// The HTTP status it carries.
    pub http: Option<Http>,
    /// `retryAfterMs`.
    pub retry_after: Option<Num>,
    /// A plain string instead of an error object.
    pub plain: bool,
}

impl FailSpec {
    fn json(self) -> Value {
        if self.plain {
            return json!("socket hang up");
        }
        let mut e = json!({"name": "TypeError", "message": "fetch failed"});
        if let Some(h) = self.http {
            e["status"] = json!(h.code());
        }
        if let Some(r) = self.retry_after {
            e["retryAfterMs"] = r.json();
        }
        e
    }
}

/// An HTTP status on a transport failure.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Http {
    /// 503.
    S503,
    /// 429.
    S429,
    /// 400 (not transient).
    S400,
    /// 408.
    S408,
    /// 500.
    S500,
    /// 404 (not transient).
    S404,
}

impl Http {
    fn code(self) -> u16 {
        match self {
            Self::S503 => 503,
            Self::S429 => 429,
            Self::S400 => 400,
            Self::S408 => 408,
            Self::S500 => 500,
            Self::S404 => 404,
        }
    }
}

/// Which pending thing a move applies to.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The oldest.
    Oldest,
    /// The newest (replies may overtake each other).
    Newest,
}

/// How the server answers a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplySpec {
    /// A result, shaped for the request's method.
    Result(StatusSpec),
    /// A JSON-RPC error.
    RpcError(ErrSpec),
    /// A transport failure.
    Rejects(FailSpec),
    /// Never: the request stays in flight, unanswered.
    Never,
}

impl<'a> Arbitrary<'a> for ReplySpec {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=204 => Self::Result(StatusSpec::arbitrary(u)?),
            205..=234 => Self::Rejects(FailSpec::arbitrary(u)?),
            235..=242 => Self::RpcError(ErrSpec::arbitrary(u)?),
            _ => Self::Never,
        })
    }
}

/// How the application answers an ask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerSpec {
    /// A valid answer (for the function: every key).
    Valid,
    /// A valid but partial answer (a decline; for the function: only the first key).
    Partial,
    /// `{tag: "ok"}` with a response that fails its check.
    Invalid,
    /// `{tag: "error", reason}`.
    Error,
    /// Not an outcome.
    Garbage,
    /// A handler's plain result (valid, untagged); for the function a plain map of responses (refused).
    Plain,
    /// Never: the ask stays running.
    Never,
}

impl<'a> Arbitrary<'a> for AnswerSpec {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=139 => Self::Valid,
            140..=179 => Self::Partial,
            180..=199 => Self::Invalid,
            200..=217 => Self::Error,
            218..=224 => Self::Garbage,
            225..=230 => Self::Plain,
            _ => Self::Never,
        })
    }
}

/// What the listen stream delivers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StreamSpec {
    /// The acknowledgement for this task.
    Ack,
    /// An acknowledgement for another task.
    AckOther,
    /// An acknowledgement whose `taskIds` is not an array.
    AckMalformed,
    /// `notifications/tasks` with this status (its `taskId` may be another task's).
    Notify(StatusSpec),
    /// Another notification.
    OtherNotification,
    /// The listen request's own response (`true`: an error).
    Response(bool),
    /// The stream ends.
    End,
    /// The stream fails at the transport level.
    Failed(FailSpec),
    /// The stream fails with a JSON-RPC error.
    FailedRpc(ErrSpec),
    /// The client has no `listen`.
    Unsupported,
}

impl<'a> Arbitrary<'a> for StreamSpec {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=114 => Self::Notify(StatusSpec::arbitrary(u)?),
            115..=169 => Self::Ack,
            170..=177 => Self::AckOther,
            178..=182 => Self::AckMalformed,
            183..=197 => Self::OtherNotification,
            198..=207 => Self::Response(bool::arbitrary(u)?),
            208..=224 => Self::End,
            225..=243 => Self::Failed(FailSpec::arbitrary(u)?),
            244..=250 => Self::FailedRpc(ErrSpec::arbitrary(u)?),
            _ => Self::Unsupported,
        })
    }
}

/// What an abort signal governs.
#[derive(Arbitrary, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScopeSpec {
    /// Everything.
    All,
    /// The `tools/call` part.
    Call,
    /// The wait part.
    Wait,
    /// Everything, never cancelling the task (the task journal's stop).
    Stop,
    /// Not an abort: the application asks for the task to be cancelled (a wait's `cancelSignal`).
    /// Drawn by its own byte of [`Move`] (skipped here: the inputs found before decode as they did).
    #[arbitrary(skip)]
    Cancel,
}

/// One move of the world.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// Answer a request in flight.
    Reply(Pick, ReplySpec),
    /// Answer a running ask.
    Answer(AnswerSpec),
    /// An application callback throws.
    Throw,
    /// The open stream delivers something.
    Stream(StreamSpec),
    /// Time passes (every timer due on the way fires).
    Advance(Dur),
    /// Time jumps to the machine's next timer, which fires.
    Wake,
    /// Time jumps by this much without firing the timers on the way, then one (late) tick: a
    /// throttled or suspended page.
    Late(Dur),
    /// A tick at the current time.
    Tick,
    /// The caller aborts.
    Abort(ScopeSpec),
    /// A late reply to a request already settled or aborted.
    Stale(StatusSpec),
}

impl<'a> Arbitrary<'a> for Move {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        Ok(match u8::arbitrary(u)? {
            0..=99 => Self::Reply(Pick::arbitrary(u)?, ReplySpec::arbitrary(u)?),
            100..=139 => Self::Answer(AnswerSpec::arbitrary(u)?),
            140..=179 => Self::Stream(StreamSpec::arbitrary(u)?),
            180..=219 => Self::Advance(Dur::step(u)?),
            220..=229 => Self::Wake,
            230..=234 => Self::Late(Dur::step(u)?),
            235..=242 => Self::Tick,
            243..=251 => Self::Stale(StatusSpec::arbitrary(u)?),
            252..=253 => Self::Abort(ScopeSpec::arbitrary(u)?),
            254 => Self::Abort(ScopeSpec::Cancel),
            _ => Self::Throw,
        })
    }
}

// ---------------------------------------------------------------------------------------------------
// The world.
// ---------------------------------------------------------------------------------------------------

/// Which part of a machine is running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// `tools/call` (with its MRTR rounds).
    Call,
    /// `awaitTask`.
    Wait,
    /// `getTask`, `cancelTask`, `updateTask`.
    Step(&'static str),
}

/// A request in flight, as the harness sees it.
#[derive(Clone, Debug)]
struct Req {
    id: ReqId,
    method: &'static str,
    never: bool,
}

/// How a request ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Settles {
    /// With a result.
    Result,
    /// With a JSON-RPC error.
    RpcError,
    /// Without a JSON-RPC answer: a transport failure, or aborted by the machine (its timeout).
    Lost,
}

/// A running ask.
#[derive(Clone, Debug)]
struct RunningAsk {
    id: AskId,
    function: bool,
    keys: Vec<(String, Option<InputKind>)>,
    never: bool,
}

/// How often a key went out in `tasks/update`, and how its first update ended.
#[derive(Clone, Debug)]
struct Sent {
    key: String,
    times: u8,
    first: ReqId,
    /// The first update is still in flight.
    first_open: bool,
    /// The first update ended without a JSON-RPC answer (transport failure or timeout).
    first_lost: bool,
}

/// An abort the machine must honour.
#[derive(Clone, Debug, PartialEq)]
enum Abort {
    /// Now: the machine must finish in this step with this reason.
    Now(Value),
    /// When the wait starts (`callAndAwait`'s wait signal fired during the call).
    AtWaitStart(Value),
}

/// Counts of what a run reached (to check that the generator is not vacuous).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stats {
    /// Moves played.
    pub moves: usize,
    /// Ticks delivered.
    pub ticks: usize,
    /// `tasks/get` sent.
    pub polls: usize,
    /// `tasks/get` sent after a failed one (a retry).
    pub retries: usize,
    /// `tasks/update` sent.
    pub updates: usize,
    /// `tasks/update` sent again after a lost one.
    pub resends: usize,
    /// Asks started (handlers and the function).
    pub asks: usize,
    /// Streams opened.
    pub streams: usize,
    /// `callAndAwait` moved on to the wait.
    pub next_parts: usize,
    /// The outcome tag (`"rejected"`, `"ok"`, `"error"`...), `None` when the run did not finish.
    pub outcome: Option<String>,
    /// The task was refused.
    pub refused: bool,
}

/// The machine under test, with everything the harness knows about it.
pub(crate) struct World<'s> {
    scenario: &'s Scenario,
    verbose: bool,
    /// `CloseStream` actions so far.
    closes: usize,
    now: u64,
    machine: Box<dyn Machine<Value>>,
    subject: &'static str,
    phase: Phase,
    opts: WaitSettings,
    deadline: Option<u64>,
    reqs: Vec<Req>,
    settled: Vec<ReqId>,
    asks: Vec<RunningAsk>,
    stopped_asks: Vec<AskId>,
    stream_open: bool,
    finished: bool,
    /// Keys asked during this wait.
    asked: Vec<String>,
    /// Keys answered before the wait began (`Subject::Resume`), with their stored answer.
    preanswered: Vec<(String, Option<Value>)>,
    /// The answer handed over for each key.
    given: Vec<(String, Value)>,
    sent: Vec<Sent>,
    /// When the previous `tasks/get` settled.
    poll_settled: Option<u64>,
    /// The last status handed to `onStatus`: state, message, outstanding keys.
    last_status: Option<StatusSeen>,
    /// The previous `tasks/get` failed without an answer.
    poll_lost: bool,
    /// A new `tools/call` may go out (the first, or after an MRTR answer).
    may_call: bool,
    /// Requests sent by a step machine.
    step_sends: u32,
    abort: Option<Abort>,
    /// A stop ended the call: no `tasks/cancel` may follow.
    stopped: bool,
    /// The application asked for the task to be cancelled (a wait's `cancelSignal`).
    cancel_asked: bool,
    /// `tasks/cancel` requests the wait sent for it.
    cancel_sends: u32,
    /// The wait of `callAndAwait` starts already aborted (finding 1 relaxes what it may start).
    wait_start_grace: bool,
    rules: Rules,
    thrown: Option<Value>,
    history: Vec<String>,
    /// What the run reached.
    pub stats: Stats,
}

/// Which rules are enforced. An open engine finding (see `tests/fuzz/README.md`) can be relaxed in
/// [`Rules::KNOWN`] so that fuzzing goes on past it; [`Rules::STRICT`] enforces everything. Finding 1
/// is fixed, so both enforce every rule now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Finding 1: `callAndAwait` whose wait signal fired during the call must start nothing in the
    /// wait (no `onStatus`, handler, `tasks/get` or stream) and must reject with the signal's reason,
    /// whatever the created task's status says.
    pub abort_before_wait_starts_nothing: bool,
}

impl Rules {
    /// Every rule.
    pub const STRICT: Self = Self { abort_before_wait_starts_nothing: true };
    /// Every rule but those of open findings (none open: finding 1 is fixed).
    pub const KNOWN: Self = Self { abort_before_wait_starts_nothing: true };
}

/// Plays `data` as a scenario under [`Rules::KNOWN`]; panics when the engine breaks a rule.
pub(crate) fn run_bytes(data: &[u8]) -> Stats {
    run(&Scenario::decode(data), Rules::KNOWN)
}

/// Plays `s` under `rules`; panics when the engine breaks a rule.
pub(crate) fn run(s: &Scenario, rules: Rules) -> Stats {
    play(s, rules, false)
}

/// Plays `s` verbosely and returns the last lines of its history too (for triage).
pub(crate) fn trace(s: &Scenario, rules: Rules) -> (Stats, Vec<String>) {
    let Some(mut w) = World::new(s, rules, true) else {
        return (Stats { refused: true, ..Stats::default() }, Vec::new());
    };
    w.play_all();
    (w.stats.clone(), w.history)
}

/// Plays `s`, keeping a history for a violation's message when `verbose` (a quiet run that breaks a
/// rule plays again verbosely: the run is deterministic).
fn play(s: &Scenario, rules: Rules, verbose: bool) -> Stats {
    let Some(mut w) = World::new(s, rules, verbose) else {
        return Stats { refused: true, ..Stats::default() };
    };
    w.play_all();
    w.stats
}

impl World<'_> {
    /// Starts the machine, plays every move (until the outcome), then runs out the clock.
    fn play_all(&mut self) {
        self.start();
        let scenario = self.scenario;
        for m in &scenario.moves {
            if self.finished {
                break;
            }
            self.stats.moves += 1;
            self.play(m);
        }
        self.finish_off();
    }
}

/// The options every machine of a scenario gets.
fn wait_options(o: &Opts) -> WaitSettings {
    let (mut min, mut max) = (o.min_poll.ms(), o.max_poll.ms());
    if min > max {
        std::mem::swap(&mut min, &mut max);
    }
    WaitSettings {
        limits: TimeLimits {
            deadline_ms: match o.timeout {
                Deadline::Default => Some(60_000),
                Deadline::Unbounded => None,
                Deadline::Ms(d) => Some(d.ms()),
            },
            request_timeout_ms: o.request_timeout.map(Dur::ms),
        },
        poll_interval_ms: o.poll.ms(),
        min_poll_interval_ms: min,
        max_poll_interval_ms: max,
        retry: Retry { retries: u32::from(o.retries % 5), seed: o.seed },
        listen_check_ms: o.listen_check.ms(),
        cancel_on_abort: o.cancel_on_abort,
        input: o.input.mode(),
        listen: o.listen,
        // From the jitter seed's bit 61 (as the read chunk, so that stored inputs keep their meaning).
        listen_fallback: (o.seed >> 61) & 1 == 1,
        read_chunk: read_chunk(o),
        generation: crate::proto::core_tasks::Generation::default(),
    }
}

/// The read chunk of a scenario: 1–3 requests per step (a status of the harness lists at most four, so
/// the read over several steps is reached), or the default — taken from the jitter seed's top bits
/// rather than a byte of its own, so that stored fuzz inputs keep their meaning.
fn read_chunk(o: &Opts) -> ReadChunk {
    match o.seed >> 62 {
        0 => ReadChunk::default(),
        n => ReadChunk(n as usize),
    }
}

/// The status object of a task reference or a created task: another task's id becomes this task's (the task
/// under test is always [`TASK`]; a missing or broken id stays broken).
fn seed_object(s: &StatusSpec) -> Map<String, Value> {
    let mut o = s.object();
    if o.get("taskId") == Some(&json!("t2")) {
        o.insert("taskId".into(), json!(TASK));
    }
    o
}

/// A stored answer for a key answered before a restart.
fn earlier_answer() -> Value {
    json!({"action": "accept", "content": {"name": "earlier"}})
}

impl<'s> World<'s> {
    /// Builds the machine at time 0; `None` when it refuses to start (a broken task).
    fn new(s: &'s Scenario, rules: Rules, verbose: bool) -> Option<Self> {
        let opts = wait_options(&s.opts);
        let call_opts = || CallSettings {
            limits: opts.limits,
            input: opts.input,
            read_chunk: opts.read_chunk,
            ..CallSettings::default()
        };
        let mut preanswered = Vec::new();
        let (machine, subject, phase): (Box<dyn Machine<Value>>, _, _) = match &s.subject {
            Subject::WaitId => {
                (Box::new(Wait::new(TaskRef::TaskId(TASK.into()), opts, 0).ok()?), "awaitTask(id)", Phase::Wait)
            }
            Subject::WaitSeed(spec) => {
                let task = TaskRef::Status(Value::Object(seed_object(spec)));
                (Box::new(Wait::new(task, opts, 0).ok()?), "awaitTask(status)", Phase::Wait)
            }
            Subject::Resume { task, answered } => {
                let task = task
                    .as_ref()
                    .map_or(TaskRef::TaskId(TASK.into()), |s| TaskRef::Status(Value::Object(seed_object(s))));
                for (k, pending) in answered.iter().take(3) {
                    if preanswered.iter().all(|(p, _): &(String, _)| p != k.name()) {
                        preanswered.push((k.name().to_owned(), pending.then(earlier_answer)));
                    }
                }
                (Box::new(Wait::resume(task, opts, &preanswered, 0).ok()?), "awaitTask(resume)", Phase::Wait)
            }
            Subject::CallTool => {
                let m = CallTool::new("slow".into(), Some(json!({})), call_opts(), 0);
                (Box::new(m), "callTool", Phase::Call)
            }
            Subject::CallAndAwait | Subject::CallAndAwaitWhole => {
                let whole = matches!(s.subject, Subject::CallAndAwaitWhole);
                let m = CallAndAwait::new("slow".into(), Some(json!({})), call_opts(), opts, whole, 0);
                (Box::new(m), "callAndAwait", Phase::Call)
            }
            Subject::GetTask => {
                let m = Step::new(Call::GetTask { task_id: TASK.into() }, TASK.into(), opts.limits, opts.retry, 0);
                (Box::new(m), "getTask", Phase::Step("tasks/get"))
            }
            Subject::CancelTask => {
                let m = Step::new(Call::CancelTask { task_id: TASK.into() }, TASK.into(), opts.limits, opts.retry, 0);
                (Box::new(m), "cancelTask", Phase::Step("tasks/cancel"))
            }
            Subject::UpdateTask => {
                let call = Call::UpdateTaskRaw { task_id: TASK.into(), responses: json!({"a": earlier_answer()}) };
                (
                    Box::new(Step::new(call, TASK.into(), opts.limits, opts.retry, 0)),
                    "updateTask",
                    Phase::Step("tasks/update"),
                )
            }
        };
        Some(Self {
            scenario: s,
            verbose,
            closes: 0,
            now: 0,
            machine,
            subject,
            phase,
            opts,
            deadline: opts.limits.deadline_ms,
            reqs: Vec::new(),
            settled: Vec::new(),
            asks: Vec::new(),
            stopped_asks: Vec::new(),
            stream_open: false,
            finished: false,
            asked: Vec::new(),
            preanswered,
            given: Vec::new(),
            sent: Vec::new(),
            poll_settled: None,
            last_status: None,
            poll_lost: false,
            may_call: true,
            step_sends: 0,
            abort: None,
            stopped: false,
            cancel_asked: false,
            cancel_sends: 0,
            wait_start_grace: false,
            rules,
            thrown: None,
            history: Vec::new(),
            stats: Stats::default(),
        })
    }

    /// Takes the actions the constructor queued.
    fn start(&mut self) {
        self.note(|w| format!("start {:?} {:?}", w.scenario.subject, w.opts));
        self.drain();
        // `callTool`, `getTask`, `cancelTask` and `updateTask` send at once and look at the clock only
        // on their first input: with `timeoutMs: 0` their deadline is due at once, as a timer for now.
        if let (Some(d), false) = (self.deadline, self.finished) {
            if self.now >= d && self.machine.wake_at() == Some(self.now) && self.phase != Phase::Wait {
                self.note(|_| "deadline due at construction: tick now".into());
                return self.tick();
            }
        }
        self.check();
    }

    // ---- moves -------------------------------------------------------------------------------------

    /// Plays one move, then checks every invariant.
    fn play(&mut self, m: &Move) {
        match m {
            Move::Reply(pick, spec) => self.reply(*pick, spec),
            Move::Answer(spec) => self.answer(*spec),
            Move::Throw => {
                self.thrown = Some(json!({"thrown": "boom"}));
                self.deliver(Event::Throw { error: json!({"thrown": "boom"}) }, || "throw".into());
            }
            Move::Stream(spec) => self.stream(spec),
            Move::Advance(d) => self.advance_by(d.ms(), TICK_BUDGET),
            Move::Wake => {
                // Timers a day or more away (a TTL of 1e300 ms) are not waited for: the clock stays
                // far from `u64::MAX`, where saturating arithmetic would shorten every backoff to 0.
                if let Some(w) = self.machine.wake_at().filter(|w| *w <= self.now.saturating_add(DAY)) {
                    self.now = self.now.max(w);
                    self.tick();
                }
            }
            Move::Late(d) => {
                self.now = self.now.saturating_add(d.ms());
                self.tick();
            }
            Move::Tick => self.tick(),
            Move::Abort(scope) => self.abort(*scope),
            Move::Stale(spec) => self.stale(spec),
        }
    }

    fn reply(&mut self, pick: Pick, spec: &ReplySpec) {
        let open = self.reqs.iter().enumerate().filter(|(_, r)| !r.never);
        let at = match pick {
            Pick::Oldest => open.map(|(i, _)| i).next(),
            Pick::Newest => open.map(|(i, _)| i).next_back(),
        };
        let Some(at) = at else { return };
        if *spec == ReplySpec::Never {
            if let Some(r) = self.reqs.get_mut(at) {
                r.never = true;
            }
            return;
        }
        let r = self.reqs.remove(at);
        let reply = match spec {
            ReplySpec::Result(s) => RequestEnd::Result(self.result_for(r.method, s)),
            ReplySpec::RpcError(e) => read_rejection(e.json()),
            ReplySpec::Rejects(f) => read_rejection(f.json()),
            ReplySpec::Never => return,
        };
        let how = match reply {
            RequestEnd::Result(_) => Settles::Result,
            RequestEnd::RpcError(_) => Settles::RpcError,
            RequestEnd::Transport(_) => Settles::Lost,
        };
        self.settle(&r, how);
        let sum = if self.verbose { summary(&reply) } else { String::new() };
        let read = self.phase == Phase::Wait && r.method == "tasks/get" && matches!(reply, RequestEnd::Result(_));
        let terminal = read && !self.stream_open && is_terminal(&reply);
        self.deliver(Event::Reply { req: r.id, reply }, || format!("reply {} {} -> {sum}", r.id.0, r.method));
        if terminal && !self.finished {
            self.violation("a tasks/get answered with a terminal status did not end the wait");
        }
        if read && !self.finished && !self.opts.listen {
            self.check_next_poll_within_ceiling();
        }
    }

    /// The harness's bookkeeping for a request that ended.
    fn settle(&mut self, r: &Req, how: Settles) {
        let lost = how == Settles::Lost;
        self.settled.push(r.id);
        if self.phase == Phase::Wait && r.method == "tasks/get" {
            self.poll_settled = Some(self.now);
            self.poll_lost = lost;
        }
        if r.method == "tasks/update" {
            for s in self.sent.iter_mut().filter(|s| s.first == r.id && s.first_open) {
                s.first_open = false;
                s.first_lost = lost;
            }
        }
        if self.phase == Phase::Call && r.method == "tools/call" && how == Settles::Result {
            self.may_call = true;
        }
    }

    /// A result shaped for `method` from `s` (the envelope decides what kind of result it is).
    fn result_for(&self, method: &str, s: &StatusSpec) -> Value {
        let e = s.envelope.0;
        let mut o = s.object();
        match method {
            "tools/call" => match e {
                0..=89 => {
                    let mut o = seed_object(s);
                    o.insert("resultType".into(), json!("task"));
                    Value::Object(o)
                }
                90..=139 => json!({"content": [{"type": "text", "text": "direct"}]}),
                140..=219 => {
                    let mut m = json!({"resultType": "input_required"});
                    if let Some(r) = &s.requests {
                        m["inputRequests"] = r.json();
                    }
                    if s.request_state {
                        m["requestState"] = json!("opaque-1");
                    }
                    m
                }
                220..=239 => json!({"resultType": "weird"}),
                _ => json!({"resultType": 7}),
            },
            "tasks/get" => {
                let rt = match e {
                    0..=99 => Some(json!("complete")),
                    100..=179 => None,
                    180..=219 => Some(json!("task")),
                    220..=234 => Some(json!("input_required")),
                    235..=247 => Some(json!("weird")),
                    _ => return json!("not an object"),
                };
                if let Some(rt) = rt {
                    o.insert("resultType".into(), rt);
                }
                Value::Object(o)
            }
            _ if e >= 240 => json!("ok"),
            _ => json!({"resultType": "complete"}),
        }
    }

    fn answer(&mut self, spec: AnswerSpec) {
        let Some(at) = self.asks.iter().position(|a| !a.never) else { return };
        if spec == AnswerSpec::Never {
            if let Some(a) = self.asks.get_mut(at) {
                a.never = true;
            }
            return;
        }
        let a = self.asks.remove(at);
        let value = answer_value(spec, &a);
        if self.phase == Phase::Wait
            && (matches!(spec, AnswerSpec::Valid | AnswerSpec::Partial) || (spec == AnswerSpec::Plain && !a.function))
        {
            self.record_given(&a, &value);
        }
        self.deliver(Event::Answer { ask: a.id, value }, || format!("answer ask {} {spec:?}", a.id.0));
    }

    /// Remembers the answer handed over for each key (the update must carry exactly it).
    fn record_given(&mut self, a: &RunningAsk, value: &Value) {
        let pairs: Vec<(String, Value)> = if a.function {
            value.get("responses").and_then(Value::as_object).map_or_else(Vec::new, |r| {
                r.iter()
                    .filter(|(k, _)| a.keys.iter().any(|(ak, _)| ak == *k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect()
            })
        } else {
            let key = a.keys.first().map(|(k, _)| k.clone()).unwrap_or_default();
            let plain = value.get("tag").is_none();
            vec![(key, if plain { value.clone() } else { value.get("response").cloned().unwrap_or(Value::Null) })]
        };
        self.given.extend(pairs);
    }

    fn stream(&mut self, spec: &StreamSpec) {
        if !self.stream_open {
            return;
        }
        let message = |v: Value| StreamEvent::Message(v);
        let ack = |ids: Value| {
            message(json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 7}, "notifications": {"taskIds": ids}}}))
        };
        let (event, ends) = match spec {
            StreamSpec::Ack => (ack(json!([TASK])), false),
            StreamSpec::AckOther => (ack(json!(["t2"])), false),
            StreamSpec::AckMalformed => (ack(json!(TASK)), false),
            StreamSpec::Notify(s) => {
                let mut params = s.object();
                params.insert("_meta".into(), json!({"io.modelcontextprotocol/subscriptionId": 7}));
                (message(json!({"jsonrpc": "2.0", "method": "notifications/tasks", "params": params})), false)
            }
            StreamSpec::OtherNotification => {
                (message(json!({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}})), false)
            }
            StreamSpec::Response(true) => {
                (message(json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}})), true)
            }
            StreamSpec::Response(false) => (message(json!({"jsonrpc": "2.0", "id": 1, "result": {}})), true),
            StreamSpec::End => (StreamEvent::End, true),
            StreamSpec::Failed(f) => (StreamEvent::Failed(f.json()), true),
            StreamSpec::FailedRpc(e) => (StreamEvent::Failed(e.json()), true),
            StreamSpec::Unsupported => (StreamEvent::Unsupported, true),
        };
        let closes = self.closes;
        self.deliver(Event::Stream(event), || format!("stream {}", stream_summary(spec)));
        if ends && self.closes == closes {
            self.violation("the stream ended or failed but the machine did not close it");
        }
    }

    fn abort(&mut self, scope: ScopeSpec) {
        let reason = json!({"aborted": format!("{scope:?}")});
        let scope = match scope {
            ScopeSpec::All => AbortScope::All,
            ScopeSpec::Call => AbortScope::Call,
            ScopeSpec::Wait => AbortScope::Wait,
            ScopeSpec::Stop => AbortScope::Stop,
            ScopeSpec::Cancel => return self.ask_cancel(),
        };
        let both = self.subject == "callAndAwait";
        let applies = match (both, scope, self.phase) {
            (false, _, _) | (true, AbortScope::All | AbortScope::Stop, _) => Some(Abort::Now(reason.clone())),
            (true, AbortScope::Call, Phase::Call) | (true, AbortScope::Wait, Phase::Wait) => {
                Some(Abort::Now(reason.clone()))
            }
            // The wait's own signal during the call: the wait must end as it starts.
            (true, AbortScope::Wait, Phase::Call) => Some(Abort::AtWaitStart(reason.clone())),
            (true, AbortScope::Call, _) | (true, _, Phase::Step(_)) => None,
        };
        if applies.is_some() {
            self.abort = applies;
            self.stopped |= scope == AbortScope::Stop;
        }
        self.deliver(Event::Abort { reason, scope }, || format!("abort {scope:?}"));
    }

    /// A wait's `cancelSignal` fired: the wait (or `callAndAwait`'s, once it starts) sends `tasks/cancel`
    /// at once — unless it already ended — and asks for no more input; other machines ignore it.
    fn ask_cancel(&mut self) {
        let waits = self.phase == Phase::Wait || self.subject == "callAndAwait";
        let first = waits && !self.cancel_asked;
        self.cancel_asked |= waits;
        let sends = self.cancel_sends;
        self.deliver(Event::Cancel, || "cancel asked".into());
        if first && self.phase == Phase::Wait && !self.finished && self.cancel_sends == sends {
            self.violation("a cancel asked of a running wait sent no tasks/cancel");
        }
        if !first && self.cancel_sends != sends {
            self.violation("tasks/cancel sent again for a cancel asked again (or by a machine that ignores it)");
        }
    }

    fn stale(&mut self, spec: &StatusSpec) {
        // Request ids restart with each part of callAndAwait (the shell tells them apart by token).
        if self.subject == "callAndAwait" {
            return;
        }
        let Some(&id) = self.settled.last() else { return };
        let reply = RequestEnd::Result(self.result_for("tasks/get", spec));
        let quiet = self.machine.wake_at().is_none_or(|w| w > self.now);
        let before = self.machine.wake_at();
        self.note(|w| format!("{} stale reply to {}", w.now, id.0));
        self.machine.handle(self.now, Event::Reply { req: id, reply });
        if quiet {
            if let Some(a) = self.machine.next_action() {
                self.violation(&format!("a late reply to settled request {} changed something: {a:?}", id.0));
            }
            if self.machine.wake_at() != before {
                self.violation("a late reply to a settled request moved wake_at");
            }
        }
        self.drain();
        self.check();
    }

    /// Advances the clock by `ms`, firing every timer due on the way (at most `budget` of them).
    fn advance_by(&mut self, ms: u64, budget: usize) {
        let target = self.now.saturating_add(ms);
        let mut same = 0;
        for _ in 0..budget {
            if self.finished {
                return;
            }
            let Some(w) = self.machine.wake_at().filter(|w| *w <= target) else {
                self.now = target;
                self.check();
                return;
            };
            same = if w == self.now { same + 1 } else { 0 };
            if same > SAME_INSTANT_TICKS {
                self.violation(&format!(
                    "livelock: wake_at stays at {w} after {SAME_INSTANT_TICKS} ticks at that instant"
                ));
            }
            self.now = w;
            self.tick();
        }
    }

    fn tick(&mut self) {
        self.stats.ticks += 1;
        self.deliver(Event::Tick, || "tick".into());
    }

    /// After the moves: a run with a deadline must end by it; a finished machine must stay quiet.
    fn finish_off(&mut self) {
        if !self.finished {
            if let Some(d) = self.deadline {
                self.advance_by(d.saturating_sub(self.now), 4 * TICK_BUDGET);
            }
        }
        if self.finished {
            self.probe_after_finish();
        }
    }

    /// Events after the outcome change nothing.
    fn probe_after_finish(&mut self) {
        let late_ask = self.stopped_asks.last().copied().unwrap_or(AskId(1));
        let late_req = self.settled.last().copied().unwrap_or(ReqId(1));
        let probes: Vec<Event<Value>> = vec![
            Event::Tick,
            Event::Reply { req: late_req, reply: RequestEnd::Result(json!({"taskId": TASK, "status": "completed"})) },
            Event::Answer { ask: late_ask, value: json!({"tag": "ok", "response": {"action": "decline"}}) },
            Event::Stream(StreamEvent::End),
            Event::Throw { error: json!("late") },
            Event::Abort { reason: json!("late"), scope: AbortScope::All },
        ];
        for e in probes {
            self.note(|_| format!("after finish: {}", event_summary(&e)));
            self.machine.handle(self.now, e);
            while let Some(a) = self.machine.next_action() {
                if !matches!(a, Action::SendDetached { .. }) {
                    self.violation(&format!("action after the end: {}", action_summary(&a)));
                }
            }
            if self.machine.wake_at().is_some() {
                self.violation("a finished machine asks for a timer after a late event");
            }
        }
    }

    // ---- driving -----------------------------------------------------------------------------------

    /// Hands `event` to the machine at the current time, carries out its actions, checks the rules.
    fn deliver(&mut self, event: Event<Value>, what: impl FnOnce() -> String) {
        self.note(|w| format!("{} {}", w.now, what()));
        self.machine.handle(self.now, event);
        self.drain();
        self.check();
    }

    fn drain(&mut self) {
        for _ in 0..ACTION_BUDGET {
            let Some(a) = self.machine.next_action() else { return };
            self.note(|_| format!("  -> {}", action_summary(&a)));
            self.on_action(a);
        }
        self.violation("endless actions: the machine produced more than ACTION_BUDGET in one step");
    }

    /// Checks one action against the contract and records what it started or stopped.
    fn on_action(&mut self, a: Action<Value>) {
        if self.finished && !matches!(a, Action::SendDetached { .. }) {
            self.violation("action after the end (only the detached cancel may follow the outcome)");
        }
        if matches!(self.abort, Some(Abort::Now(_))) && starts_something(&a) && !self.wait_start_grace {
            self.violation("the caller aborted, yet the machine started something new");
        }
        match a {
            Action::Send { req, call, timeout_ms } => self.on_send(req, &call, timeout_ms),
            Action::SendDetached { call, timeout_ms } => self.on_detached(&call, timeout_ms),
            Action::Abort { req } => self.on_abort_req(req),
            Action::Status(s) => self.on_status(&s),
            Action::Ask { .. } | Action::AskAll { .. } if self.cancel_asked && self.phase == Phase::Wait => {
                self.violation("input asked for after the application asked for a cancel");
            }
            Action::Ask { ask, kind, key, .. } => self.on_ask(ask, false, vec![(key, Some(kind))]),
            Action::AskAll { ask, status } => {
                let Some(requests) = status.get("inputRequests").and_then(Value::as_object) else {
                    return self.violation("the input function got a status without an inputRequests object");
                };
                let keys: Vec<(String, Option<InputKind>)> = requests
                    .iter()
                    .map(|(k, v)| (k.clone(), read_input_request::<Value>(k, v).ok().and_then(|r| r.kind)))
                    .collect();
                if keys.is_empty() {
                    self.violation("the input function was called with no request");
                }
                self.on_ask(ask, true, keys);
            }
            Action::StopAsk { ask } => match self.asks.iter().position(|a| a.id == ask) {
                Some(at) => {
                    self.asks.remove(at);
                    self.stopped_asks.push(ask);
                }
                None => self.violation(&format!("StopAsk for ask {} that is not running", ask.0)),
            },
            Action::OpenStream { call } => self.on_open_stream(&call),
            Action::CloseStream => {
                if !self.stream_open {
                    self.violation("CloseStream without an open stream");
                }
                self.closes += 1;
                self.stream_open = false;
            }
            Action::NextPart => self.on_next_part(),
            Action::Continue | Action::Speak { .. } => {}
            Action::End(f) => self.on_finish(f),
        }
    }

    /// `onStatus` gets this task's status objects, each new (state, message or outstanding keys).
    fn on_status(&mut self, s: &Value) {
        if s.get("status").and_then(Value::as_str).is_none() || s.get("taskId").and_then(Value::as_str) != Some(TASK) {
            self.violation("onStatus got a status that is not this task's status object");
        }
        let keys: Vec<String> =
            s.get("inputRequests").and_then(Value::as_object).map(|o| o.keys().cloned().collect()).unwrap_or_default();
        let seen = (s.get("status").cloned(), s.get("statusMessage").and_then(Value::as_str).map(str::to_owned), keys);
        if self.last_status.as_ref() == Some(&seen) {
            self.violation("onStatus called twice in a row for the same status");
        }
        self.last_status = Some(seen);
    }

    fn on_send(&mut self, req: ReqId, call: &Call<Value>, timeout_ms: Option<u64>) {
        let method = call.method();
        if self.reqs.iter().any(|r| r.id == req) {
            self.violation(&format!("request id {} reused while in flight", req.0));
        }
        let allowed = match self.phase {
            Phase::Call => method == "tools/call",
            Phase::Wait => {
                matches!(method, "tasks/get" | "tasks/update") || (self.cancel_asked && method == "tasks/cancel")
            }
            Phase::Step(m) => method == m,
        };
        if !allowed {
            self.violation(&format!("{method} sent during the {:?} part", self.phase));
        }
        self.check_timeout_hint(method, timeout_ms);
        match (self.phase, method) {
            (Phase::Wait, "tasks/get") => self.on_poll(),
            (Phase::Wait, "tasks/update") if self.cancel_asked => {
                self.violation("tasks/update sent after the application asked for a cancel");
            }
            (Phase::Wait, "tasks/update") => self.on_update(req, call),
            (Phase::Wait, "tasks/cancel") => {
                self.cancel_sends += 1;
                if self.cancel_sends > self.opts.retry.retries + 1 {
                    self.violation(&format!("tasks/cancel sent {} times", self.cancel_sends));
                }
            }
            (Phase::Call, _) => {
                if !self.may_call {
                    self.violation("tools/call re-issued without an MRTR answer (it could create a second task)");
                }
                self.may_call = false;
            }
            (Phase::Step(m), _) => {
                self.step_sends += 1;
                let most = if m == "tasks/update" { 1 } else { self.opts.retry.retries + 1 };
                if self.step_sends > most {
                    self.violation(&format!("{m} sent {} times (at most {most})", self.step_sends));
                }
                if !self.reqs.is_empty() {
                    self.violation("a step machine re-issued its request while the previous one is in flight");
                }
            }
            _ => {}
        }
        self.reqs.push(Req { id: req, method, never: false });
    }

    /// Each request's timeout hint is the time left or the request timeout, the shorter.
    fn check_timeout_hint(&mut self, method: &str, timeout_ms: Option<u64>) {
        let left = self.deadline.map(|d| d.saturating_sub(self.now));
        let expected = match (left, self.opts.limits.request_timeout_ms) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if timeout_ms != expected {
            self.violation(&format!("{method} sent with timeout {timeout_ms:?}, expected {expected:?}"));
        }
    }

    /// One `tasks/get` at a time, each at least `minPollIntervalMs` after the previous one settled.
    fn on_poll(&mut self) {
        self.stats.polls += 1;
        if self.poll_lost {
            self.stats.retries += 1;
        }
        if self.reqs.iter().any(|r| r.method == "tasks/get") {
            self.violation("a second tasks/get while one is in flight");
        }
        if let Some(t) = self.poll_settled {
            let floor = t.saturating_add(self.opts.min_poll_interval_ms);
            if self.now < floor {
                self.violation(&format!(
                    "tasks/get at {} is sooner than minPollIntervalMs {} after the previous settled at {t}",
                    self.now, self.opts.min_poll_interval_ms
                ));
            }
        }
    }

    /// After a read that leaves a polling wait going, the next read is due within
    /// `maxPollIntervalMs` (a huge server interval cannot park the wait).
    fn check_next_poll_within_ceiling(&mut self) {
        if self.reqs.iter().any(|r| r.method == "tasks/get") {
            return; // already gone out
        }
        let ceiling = self.now.saturating_add(self.opts.max_poll_interval_ms);
        match self.machine.wake_at() {
            Some(w) if w <= ceiling => {}
            w => self
                .violation(&format!("after a read the next timer is {w:?}, past maxPollIntervalMs (due by {ceiling})")),
        }
    }

    /// Keys in `tasks/update`: asked (or answered before), carrying the answer handed over, and sent
    /// once — twice only after the first update was lost without a JSON-RPC answer.
    fn on_update(&mut self, req: ReqId, call: &Call<Value>) {
        let Call::UpdateTask { responses, .. } = call else {
            return self.violation("awaitTask sent a raw tasks/update");
        };
        self.stats.updates += 1;
        if responses.is_empty() {
            self.violation("a tasks/update with no answer");
        }
        let mut seen: Vec<&str> = Vec::new();
        for (k, v) in responses {
            if seen.contains(&k.as_str()) {
                self.violation(&format!("key {k:?} twice in one tasks/update"));
            }
            seen.push(k);
            self.check_update_key(req, k, v);
        }
    }

    fn check_update_key(&mut self, req: ReqId, k: &str, v: &Value) {
        let before = self.preanswered.iter().find(|(p, _)| p == k).map(|(_, a)| a.clone());
        match (&before, self.asked.iter().any(|a| a == k)) {
            (Some(Some(stored)), _) if stored != v => {
                self.violation(&format!("key {k:?} sent with an altered stored answer"))
            }
            (Some(None), _) => self.violation(&format!("key {k:?} was answered and acknowledged before, yet sent")),
            (Some(_), true) => self.violation(&format!("key {k:?} was answered before the wait, yet asked")),
            (None, false) => self.violation(&format!("key {k:?} sent in tasks/update but never asked")),
            _ => {}
        }
        if before.is_none() {
            match self.given.iter().find(|(g, _)| g == k) {
                Some((_, g)) if g != v => {
                    self.violation(&format!("key {k:?} sent with another answer than handed over"))
                }
                None => self.violation(&format!("key {k:?} sent in tasks/update before it was answered")),
                _ => {}
            }
        }
        let max = if before.is_some() { 1 } else { 2 };
        match self.sent.iter_mut().find(|s| s.key == k) {
            None => {
                self.sent.push(Sent { key: k.to_owned(), times: 1, first: req, first_open: true, first_lost: false })
            }
            Some(s) => {
                let (times, open, lost) = (s.times, s.first_open, s.first_lost);
                s.times += 1;
                if times >= max {
                    self.violation(&format!("key {k:?} sent in tasks/update {} times", times + 1));
                } else if open {
                    self.violation(&format!("key {k:?} re-sent while its first tasks/update is in flight"));
                } else if !lost {
                    self.violation(&format!("key {k:?} re-sent although its first tasks/update was answered"));
                }
                self.stats.resends += 1;
            }
        }
    }

    fn on_detached(&mut self, call: &Call<Value>, timeout_ms: u64) {
        if !matches!(call, Call::CancelTask { .. }) {
            self.violation("a detached request that is not tasks/cancel");
        }
        // The wait's abort: during the wait, or during the call (then it comes as the task is created).
        let aborted = !self.stopped
            && match (self.phase, &self.abort) {
                (Phase::Wait, Some(Abort::Now(_))) => true,
                (Phase::Call, Some(Abort::AtWaitStart(_))) => self.subject == "callAndAwait",
                _ => false,
            };
        if !self.opts.cancel_on_abort || !aborted {
            self.violation("a detached tasks/cancel without an abort of a wait with cancelOnAbort");
        }
        let expected = self.opts.limits.request_timeout_ms.unwrap_or(DETACHED_CANCEL_TIMEOUT_MS);
        if timeout_ms != expected {
            self.violation(&format!("detached tasks/cancel bounded by {timeout_ms}, expected {expected}"));
        }
    }

    fn on_abort_req(&mut self, req: ReqId) {
        let Some(at) = self.reqs.iter().position(|r| r.id == req) else {
            return self.violation(&format!("Abort for request {} that is not in flight", req.0));
        };
        let r = self.reqs.remove(at);
        self.settle(&r, Settles::Lost);
    }

    fn on_ask(&mut self, ask: AskId, function: bool, keys: Vec<(String, Option<InputKind>)>) {
        self.stats.asks += 1;
        if self.asks.iter().any(|a| a.id == ask) {
            self.violation(&format!("ask id {} reused while running", ask.0));
        }
        if self.phase == Phase::Wait {
            for (k, _) in &keys {
                if self.asked.iter().any(|a| a == k) {
                    self.violation(&format!("key {k:?} asked twice during one wait"));
                }
                if self.preanswered.iter().any(|(p, _)| p == k) {
                    self.violation(&format!("key {k:?} was answered before the wait, yet asked"));
                }
                self.asked.push(k.clone());
            }
        }
        self.asks.push(RunningAsk { id: ask, function, keys, never: false });
    }

    fn on_open_stream(&mut self, call: &Call<Value>) {
        self.stats.streams += 1;
        if self.phase != Phase::Wait || !self.opts.listen {
            self.violation("a listen stream opened outside a wait with listen: true");
        }
        if self.stream_open {
            self.violation("a second listen stream while one is open");
        }
        if !matches!(call, Call::Listen { task_id } if task_id == TASK) {
            self.violation("the listen stream is not for this task");
        }
        self.stream_open = true;
    }

    /// `callAndAwait` moves on to the wait: the call must have left nothing behind.
    fn on_next_part(&mut self) {
        self.stats.next_parts += 1;
        if self.subject != "callAndAwait" || self.phase != Phase::Call {
            return self.violation("NextPart outside the call part of callAndAwait");
        }
        if !self.reqs.is_empty() || !self.asks.is_empty() || self.stream_open {
            self.violation("the call part left requests, asks or a stream behind");
        }
        self.phase = Phase::Wait;
        // The whole call's bound (counted from its start, at 0) stays the wait's; else the wait's own.
        if !matches!(self.scenario.subject, Subject::CallAndAwaitWhole) {
            self.deadline = self.opts.limits.deadline_ms.map(|t| self.now.saturating_add(t));
        }
        self.settled.clear();
        self.stopped_asks.clear();
        self.last_status = None;
        if let Some(Abort::AtWaitStart(r)) = &self.abort {
            self.abort = Some(Abort::Now(r.clone()));
            self.wait_start_grace = !self.rules.abort_before_wait_starts_nothing;
        }
    }

    /// The outcome: exactly one, with nothing left behind, and the abort reason or exception when
    /// one ended the run.
    fn on_finish(&mut self, f: End<Value>) {
        self.finished = true;
        // Finding 1: the task reference of an already-aborted wait may decide the outcome first.
        let grace = std::mem::take(&mut self.wait_start_grace);
        if !self.reqs.is_empty() || !self.asks.is_empty() || self.stream_open {
            self.violation("the end left requests, asks or the stream behind");
        }
        let tag = match &f {
            End::Outcome(Outcome::Error(e)) => {
                let cause = e.to_json().pointer("/cause/type").and_then(Value::as_str).unwrap_or("?").to_owned();
                format!("error {cause}")
            }
            End::Outcome(o) => o.to_json().get("tag").and_then(Value::as_str).unwrap_or("?").to_owned(),
            End::Rejection(_) => "rejected".to_owned(),
        };
        if let End::Outcome(Outcome::Result(r)) = &f {
            if !r.is_object() {
                self.violation("resolved with a result that is not an object");
            }
        }
        if self.cancel_asked && self.phase == Phase::Wait && matches!(f, End::Outcome(Outcome::InputRequired(_))) {
            self.violation("input_required outcome after the application asked for a cancel");
        }
        if tag == "error timeout" && self.deadline.is_none_or(|d| self.now < d) {
            self.violation("a timeout outcome before the deadline");
        }
        self.stats.outcome = Some(tag);
        if grace {
            return;
        }
        match (&self.abort, &self.thrown, &f) {
            (Some(Abort::Now(reason)), _, End::Rejection(v)) if v == reason => {}
            (Some(Abort::Now(_)), _, _) => {
                self.violation("aborted, but the outcome is not a rejection with the reason")
            }
            (None | Some(Abort::AtWaitStart(_)), Some(e), End::Rejection(v)) if v == e => {}
            (None | Some(Abort::AtWaitStart(_)), Some(_), _) => {
                self.violation("a callback threw, but the outcome is not a rejection with the exception")
            }
            // The wait's own signal fired during the call: the call ends with that rejection as soon as
            // it created the task, before anything of the wait starts.
            (Some(Abort::AtWaitStart(reason)), _, End::Rejection(v)) if v == reason => {}
            (_, None, End::Rejection(_)) => self.violation("rejected without an abort or an exception"),
            _ => {}
        }
    }

    // ---- invariants after every step -----------------------------------------------------------------

    /// The rules that hold between steps: the abort and exceptions ended the run; timers are never in
    /// the past, always armed while a deadline exists, never past it; the deadline is never passed
    /// unfinished; an unfinished machine always has something that can move it.
    fn check(&mut self) {
        let wake = self.machine.wake_at();
        if self.finished {
            if wake.is_some() {
                self.violation("a finished machine still asks for a timer");
            }
            return;
        }
        if matches!(self.abort, Some(Abort::Now(_))) {
            self.violation("the caller aborted, but the machine did not finish");
        }
        if self.thrown.is_some() {
            self.violation("a callback threw, but the machine did not finish");
        }
        if let Some(w) = wake {
            if w < self.now {
                self.violation(&format!("wake_at {w} is in the past (now {})", self.now));
            }
        }
        if let Some(d) = self.deadline {
            if self.now >= d {
                self.violation(&format!("the deadline {d} passed without an end"));
            }
            match wake {
                None => self.violation("no timer armed although a deadline exists"),
                Some(w) if w > d => self.violation(&format!("wake_at {w} is past the deadline {d}")),
                Some(_) => {}
            }
        }
        if wake.is_none() && self.reqs.is_empty() && self.asks.is_empty() && !self.stream_open {
            self.violation("stuck: no timer, no request, no ask and no stream can move the machine");
        }
    }

    /// Keeps a history line (only in a verbose run: quiet runs build no strings).
    fn note(&mut self, line: impl FnOnce(&Self) -> String) {
        if !self.verbose {
            return;
        }
        if self.history.len() >= HISTORY {
            self.history.remove(0);
        }
        let line = line(self);
        self.history.push(line);
    }

    /// Panics with the broken rule and the recent history (a quiet run plays again verbosely first,
    /// which panics there with the history).
    fn violation(&self, rule: &str) {
        if !self.verbose {
            play(self.scenario, self.rules, true);
            panic!("engine invariant broken in {} at t={}: {rule} (not reproduced verbosely)", self.subject, self.now);
        }
        let mut m = format!("engine invariant broken in {} at t={}: {rule}\nrecent history:\n", self.subject, self.now);
        for h in &self.history {
            let _ = writeln!(m, "  {h}");
        }
        panic!("{m}");
    }
}

/// A result whose `status` is completed, failed or cancelled.
fn is_terminal(r: &RequestEnd<Value>) -> bool {
    let RequestEnd::Result(v) = r else { return false };
    matches!(v.get("status").and_then(Value::as_str), Some("completed" | "failed" | "cancelled"))
}

/// What makes a status new for `onStatus`: its state, its message, its outstanding keys.
type StatusSeen = (Option<Value>, Option<String>, Vec<String>);

/// Actions that start something (forbidden once the caller aborted).
fn starts_something<V>(a: &Action<V>) -> bool {
    matches!(
        a,
        Action::Send { .. }
            | Action::Ask { .. }
            | Action::AskAll { .. }
            | Action::OpenStream { .. }
            | Action::Status(_)
    )
}

/// A valid response for a request of `kind` (`None`: a kind the library does not check).
fn valid_response(kind: Option<InputKind>) -> Value {
    match kind {
        Some(InputKind::Form) => {
            json!({"action": "accept", "content": {"name": "Ada", "n": 3, "ok": true, "tags": ["x"]}})
        }
        Some(InputKind::Url) => json!({"action": "accept"}),
        Some(InputKind::Sampling) => {
            json!({"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m1"})
        }
        Some(InputKind::Roots) => json!({"roots": [{"uri": "file:///srv", "name": "srv"}]}),
        None => json!({"anything": true}),
    }
}

/// The value an ask resolves with.
fn answer_value(spec: AnswerSpec, a: &RunningAsk) -> Value {
    let first = a.keys.first().cloned().unwrap_or_default();
    match (spec, a.function) {
        (AnswerSpec::Valid, false) => json!({"tag": "ok", "response": valid_response(first.1)}),
        (AnswerSpec::Partial, false) => match first.1 {
            Some(InputKind::Form | InputKind::Url) => json!({"tag": "ok", "response": {"action": "decline"}}),
            k => json!({"tag": "ok", "response": valid_response(k)}),
        },
        (AnswerSpec::Valid, true) => {
            let r: Map<String, Value> = a.keys.iter().map(|(k, kind)| (k.clone(), valid_response(*kind))).collect();
            json!({"tag": "ok", "responses": r})
        }
        (AnswerSpec::Partial, true) => {
            let r: Map<String, Value> =
                a.keys.iter().skip(1).take(1).map(|(k, kind)| (k.clone(), valid_response(*kind))).collect();
            json!({"tag": "ok", "responses": r})
        }
        (AnswerSpec::Invalid, false) => json!({"tag": "ok", "response": {"action": "maybe"}}),
        (AnswerSpec::Invalid, true) => json!({"tag": "ok", "responses": [first.0]}),
        (AnswerSpec::Error, _) => json!({"tag": "error", "reason": {"message": "no"}}),
        (AnswerSpec::Plain, false) => valid_response(first.1),
        (AnswerSpec::Plain, true) => {
            let r: Map<String, Value> = a.keys.iter().map(|(k, kind)| (k.clone(), valid_response(*kind))).collect();
            Value::Object(r)
        }
        (AnswerSpec::Garbage | AnswerSpec::Never, _) => json!({"tag": "weird"}),
    }
}

fn summary(r: &RequestEnd<Value>) -> String {
    match r {
        RequestEnd::Result(v) => format!("result {}", short(v)),
        RequestEnd::RpcError(e) => format!("rpc error {}", e.code),
        RequestEnd::Transport(v) => format!("transport {}", short(v)),
    }
}

fn stream_summary(s: &StreamSpec) -> String {
    match s {
        StreamSpec::Notify(st) => format!("notify {}", short(&Value::Object(st.object()))),
        other => format!("{other:?}"),
    }
}

fn event_summary(e: &Event<Value>) -> &'static str {
    match e {
        Event::Tick => "tick",
        Event::Reply { .. } => "late reply",
        Event::Answer { .. } => "late answer",
        Event::Stream(_) => "stream end",
        Event::Throw { .. } => "throw",
        Event::Abort { .. } => "abort",
        Event::Cancel => "cancel asked",
        Event::ServerRequest { .. } => "server request",
        Event::Session(_) => "session",
    }
}

fn action_summary(a: &Action<Value>) -> String {
    match a {
        Action::Send { req, call, timeout_ms } => {
            format!("send {} {} {:?}{}", req.0, call.method(), timeout_ms, keys_of(call))
        }
        Action::SendDetached { call, timeout_ms } => format!("detached {} {timeout_ms}", call.method()),
        Action::Abort { req } => format!("abort request {}", req.0),
        Action::Status(s) => format!("status {}", short(s)),
        Action::Ask { ask, kind, key, .. } => format!("ask {} {} {key}", ask.0, kind.handler_name()),
        Action::AskAll { ask, status } => {
            let keys: Vec<&String> =
                status.get("inputRequests").and_then(Value::as_object).map(|o| o.keys().collect()).unwrap_or_default();
            format!("ask function {} {keys:?}", ask.0)
        }
        Action::StopAsk { ask } => format!("stop ask {}", ask.0),
        Action::OpenStream { .. } => "open stream".into(),
        Action::CloseStream => "close stream".into(),
        Action::NextPart => "next part".into(),
        Action::Continue => "continue".into(),
        Action::Speak { core } => format!("speak core={core}"),
        Action::End(End::Outcome(o)) => format!("finish {}", short(&o.to_json())),
        Action::End(End::Rejection(v)) => format!("finish reject {}", short(v)),
    }
}

fn keys_of(call: &Call<Value>) -> String {
    match call {
        Call::UpdateTask { responses, .. } => {
            let keys: Vec<&str> = responses.iter().map(|(k, _)| k.as_str()).collect();
            format!(" {keys:?}")
        }
        _ => String::new(),
    }
}

/// A value's JSON, cut to a readable length.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(160) {
        Some((at, _)) => format!("{}…", s.get(..at).unwrap_or_default()),
        None => s,
    }
}
