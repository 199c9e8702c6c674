//! The input desk: hands outstanding input requests to the application (handlers, the input function,
//! or back to the caller), checks the answers, groups them into rounds, and reserves every key it has
//! asked, so that no key is asked or answered twice during one wait.
//!
//! A key is reserved from the moment its ask starts until the wait ends, whether or not its round has
//! finished: a round whose handlers finish at different times is sent as one `tasks/update` once the
//! last of them answers, and polls in between ask nothing again. Keys the input function leaves out of
//! its answer stay reserved too (they are not asked again during this wait).

use super::outcome::CODE_INVALID_PARAMS;
use super::settings::{InputMode, ReadChunk, DETACHED_CANCEL_TIMEOUT_MS};
use super::{sorted, Action, AskId, Queue, TaskError};
use crate::json::Json;
use crate::proto::core_tasks::as_input_request;
use crate::proto::input::{check_response, read_input_request, InputKind, InputRequest};
use crate::proto::request::Call;

/// Why offering or answering stopped the wait.
#[derive(Clone, Debug)]
pub(crate) enum Stop<V> {
    /// Input is needed that the library may not answer: give the status back as `input_required`.
    Return,
    /// End with this error.
    Fail(TaskError<V>),
}

/// One handler call (one key) or input-function call (several keys), running while `keys` is not empty.
#[derive(Clone, Debug)]
struct Ask {
    id: AskId,
    round: u32,
    function: bool,
    /// The keys it answers, with their kinds (`None`: a kind no handler exists for); emptied once it
    /// answered or was withdrawn.
    keys: Vec<(String, Option<InputKind>)>,
}

/// Answers gathered for one round of asks.
#[derive(Clone, Debug)]
struct Round<V> {
    id: u32,
    open: usize,
    answers: Vec<(String, V)>,
}

/// An offer whose requests are still being read (a status listing more than one read chunk of them).
#[derive(Clone, Debug)]
struct Reading<V> {
    /// The status they came with.
    status: V,
    /// The requests not reserved, in the status's order.
    pending: Vec<(String, V)>,
    /// Those read so far.
    parsed: Vec<InputRequest<V>>,
}

/// The desk for one wait (or one MRTR round). Every step is linear in the requests of the status at
/// hand, up to a sort (thousands of requests in one status are handled without a quadratic pass).
#[derive(Clone, Debug)]
pub(crate) struct InputDesk<V> {
    mode: InputMode,
    /// Every key asked (or answered before the wait began): never asked again during this wait.
    reserved: Vec<String>,
    /// The asks of the current rounds in id order (ids only grow), the finished ones among them with no
    /// keys left; cleared whenever none is running.
    asks: Vec<Ask>,
    /// How many of `asks` are running.
    running: usize,
    rounds: Vec<Round<V>>,
    ready: Vec<Vec<(String, V)>>,
    next_ask: u32,
    next_round: u32,
    /// Requests read per step.
    chunk: ReadChunk,
    /// The offer being read, when its status lists more requests than one chunk.
    reading: Option<Reading<V>>,
}

impl<J: Json> InputDesk<J> {
    /// An empty desk answering through `mode`, reading `chunk` requests per step.
    pub(crate) fn new(mode: InputMode, chunk: ReadChunk) -> Self {
        Self {
            mode,
            chunk,
            reading: None,
            reserved: Vec::new(),
            asks: Vec::new(),
            running: 0,
            rounds: Vec::new(),
            ready: Vec::new(),
            next_ask: 1,
            next_round: 1,
        }
    }

    /// Marks `key` as already answered (e.g. before a restart): it is never asked during this wait.
    pub(crate) fn reserve(&mut self, key: &str) {
        self.reserved.push(key.to_owned());
    }

    /// Offers the requests outstanding in `status` (its `inputRequests` as `requests`): withdraws running
    /// asks (and held answers) whose keys are gone, then hands every key not reserved to the application
    /// as one new round. With `input: "return"` any unreserved key gives the status back at once,
    /// whatever the requests hold. Every request is read before any is handed out (a malformed one fails
    /// the status, and nothing is asked); when they are more than one chunk, `Ok` leaves the rest to
    /// [`Self::read_more`] (see [`Self::reading`]): the first chunk is read here.
    pub(crate) fn offer(&mut self, requests: &[(String, J)], status: &J, out: &mut Queue<J>) -> Result<(), Stop<J>> {
        self.reading = None;
        if self.running > 0 {
            self.withdraw_missing(requests, out);
        }
        let reserved = sorted(self.reserved.iter().map(String::as_str));
        let pending: Vec<(String, J)> =
            requests.iter().filter(|(k, _)| reserved.binary_search(&k.as_str()).is_err()).cloned().collect();
        self.take(pending, status, out)
    }

    /// Offers one more request beside those already asked, withdrawing none (MCP 2025-11-25: the
    /// server's requests arrive one by one; each is pending until answered; a wait hears a bounded
    /// number of them, so a look through the reserved keys is cheap). Otherwise as [`Self::offer`].
    pub(crate) fn add(&mut self, key: String, request: J, status: &J, out: &mut Queue<J>) -> Result<(), Stop<J>> {
        if self.reserved.contains(&key) {
            return Ok(());
        }
        self.take(vec![(key, request)], status, out)
    }

    /// Hands the `pending` requests (none of them reserved) out, as [`Self::offer`] says.
    fn take(&mut self, pending: Vec<(String, J)>, status: &J, out: &mut Queue<J>) -> Result<(), Stop<J>> {
        if pending.is_empty() {
            return Ok(());
        }
        if self.mode == InputMode::Return {
            return Err(Stop::Return);
        }
        self.reading = Some(Reading { status: status.clone(), pending, parsed: Vec::new() });
        self.read_more(out).map(drop)
    }

    /// `true` while an offer's requests are being read (see [`Self::read_more`]).
    pub(crate) fn reading(&self) -> bool {
        self.reading.is_some()
    }

    /// Reads the next chunk of the requests of the offer being read; once all are read, hands them out
    /// as [`Self::offer`] does. `Ok(true)`: none is left to read.
    pub(crate) fn read_more(&mut self, out: &mut Queue<J>) -> Result<bool, Stop<J>> {
        let Some(r) = self.reading.as_mut() else { return Ok(true) };
        let from = r.parsed.len();
        let to = from.saturating_add(self.chunk.0.max(1)).min(r.pending.len());
        for (key, request) in r.pending.get(from..to).unwrap_or_default() {
            match read_input_request(key, request) {
                Ok(parsed) => r.parsed.push(parsed),
                Err(m) => {
                    let status = r.status.clone();
                    self.reading = None;
                    return Err(Stop::Fail(TaskError::protocol("inputRequests", m, status)));
                }
            }
        }
        if to < r.pending.len() {
            return Ok(false);
        }
        let Some(r) = self.reading.take() else { return Ok(true) };
        self.hand_out(r, out)?;
        Ok(true)
    }

    /// Hands the requests of a finished read out as one new round.
    fn hand_out(&mut self, r: Reading<J>, out: &mut Queue<J>) -> Result<(), Stop<J>> {
        let Reading { status, pending, parsed } = r;
        let round = self.next_round;
        self.next_round += 1;
        let before = self.asks.len();
        // Every key handed out is reserved.
        match self.mode {
            InputMode::Return => return Err(Stop::Return),
            InputMode::Handlers(set) => {
                if parsed.iter().any(|r| !r.kind.is_some_and(|k| set.has(k))) {
                    return Err(Stop::Return);
                }
                for r in parsed {
                    let Some(kind) = r.kind else { continue };
                    self.reserved.push(r.key.clone());
                    let id = self.new_ask(round, false, vec![(r.key.clone(), Some(kind))]);
                    out.push_back(Action::Ask { ask: id, kind, key: r.key, params: r.params, status: status.clone() });
                }
            }
            InputMode::Function => {
                let keys: Vec<(String, Option<InputKind>)> = parsed.into_iter().map(|r| (r.key, r.kind)).collect();
                self.reserved.extend(keys.iter().map(|(k, _)| k.clone()));
                let limited = J::object(pending.iter().map(|(k, v)| (k.as_str(), v.clone())).collect());
                let view = status.with_field("inputRequests", Some(limited));
                let id = self.new_ask(round, true, keys);
                out.push_back(Action::AskAll { ask: id, status: view });
            }
        }
        self.rounds.push(Round { id: round, open: self.asks.len() - before, answers: Vec::new() });
        Ok(())
    }

    /// Takes in what an ask resolved with. Late answers (for withdrawn asks) are ignored.
    pub(crate) fn answer(&mut self, ask: AskId, value: &J, status: &J) -> Result<(), Stop<J>> {
        let Ok(at) = self.asks.binary_search_by_key(&ask.0, |a| a.id.0) else { return Ok(()) };
        let Some(a) = self.asks.get_mut(at).filter(|a| !a.keys.is_empty()) else { return Ok(()) };
        let (round, function, keys) = (a.round, a.function, std::mem::take(&mut a.keys));
        self.finished_one();
        let key = if function { None } else { keys.first().map(|(k, _)| k.clone()) };
        let fail = |reason: J| Stop::Fail(TaskError::input_handler(key.clone(), reason, status.clone()));
        let answers = match value.get_str("tag").as_deref() {
            Some("ok") if function => {
                let responses = value.get("responses").unwrap_or_else(J::null);
                if !responses.is_object() {
                    return Err(fail(invalid_response(responses)));
                }
                let mut answers = Vec::new();
                for (k, kind) in &keys {
                    let Some(response) = responses.get(k) else { continue };
                    // A request of a kind the library does not know is answered unchecked.
                    if let Some(kind) = kind {
                        check_response(*kind, &response).map_err(|_| fail(invalid_response(response.clone())))?;
                    }
                    answers.push((k.clone(), response));
                }
                answers
            }
            // A handler's answer: `{tag: "ok", response}`, or the plain result (an object without `tag`).
            tag @ (Some("ok") | None) if !function && (tag.is_some() || plain_result(value)) => {
                let response =
                    if tag.is_some() { value.get("response").unwrap_or_else(J::null) } else { value.clone() };
                let Some((k, Some(kind))) = keys.first() else { return Ok(()) };
                check_response(*kind, &response).map_err(|_| fail(invalid_response(response.clone())))?;
                vec![(k.clone(), response)]
            }
            Some("error") => return Err(fail(value.get("reason").unwrap_or_else(J::null))),
            _ => return Err(fail(J::object(vec![("type", J::string("invalid_outcome")), ("outcome", value.clone())]))),
        };
        self.settle(round, answers);
        Ok(())
    }

    /// Completed rounds' answers, each to be sent in one request (a round may have none).
    pub(crate) fn take_ready(&mut self) -> Vec<Vec<(String, J)>> {
        std::mem::take(&mut self.ready)
    }

    /// `true` while some handler or function call is running.
    pub(crate) fn busy(&self) -> bool {
        self.running > 0
    }

    /// Aborts every running ask (the wait is ending).
    pub(crate) fn stop_all(&mut self, out: &mut Queue<J>) {
        for a in self.asks.drain(..).filter(|a| !a.keys.is_empty()) {
            out.push_back(Action::StopAsk { ask: a.id });
        }
        self.running = 0;
        self.rounds.clear();
        self.reading = None;
    }

    fn new_ask(&mut self, round: u32, function: bool, keys: Vec<(String, Option<InputKind>)>) -> AskId {
        let id = AskId(self.next_ask);
        self.next_ask += 1;
        self.asks.push(Ask { id, round, function, keys });
        self.running += 1;
        id
    }

    /// One ask stopped running; the list goes once none runs.
    fn finished_one(&mut self) {
        self.running = self.running.saturating_sub(1);
        if self.running == 0 {
            self.asks = Vec::new();
        }
    }

    /// Drops keys that are no longer requested from running asks and from answers held for unfinished
    /// rounds; an ask left with no key is aborted (its late answer will never be sent) and counts as
    /// settled in its round. The keys stay reserved.
    fn withdraw_missing(&mut self, requests: &[(String, J)], out: &mut Queue<J>) {
        let listed = sorted(requests.iter().map(|(k, _)| k.as_str()));
        let is_listed = |k: &String| listed.binary_search(&k.as_str()).is_ok();
        let mut settled = Vec::new();
        for a in self.asks.iter_mut().filter(|a| !a.keys.is_empty()) {
            a.keys.retain(|(k, _)| is_listed(k));
            if a.keys.is_empty() {
                out.push_back(Action::StopAsk { ask: a.id });
                settled.push(a.round);
            }
        }
        for r in &mut self.rounds {
            r.answers.retain(|(k, _)| is_listed(k));
        }
        for round in settled {
            self.finished_one();
            self.settle(round, Vec::new());
        }
    }

    fn settle(&mut self, round: u32, answers: Vec<(String, J)>) {
        let Some(at) = self.rounds.iter().position(|r| r.id == round) else { return };
        let Some(r) = self.rounds.get_mut(at) else { return };
        r.answers.extend(answers);
        r.open = r.open.saturating_sub(1);
        if r.open > 0 {
            return;
        }
        let r = self.rounds.remove(at);
        self.ready.push(r.answers);
    }
}

/// The most requests of its server (MCP 2025-11-25) one wait or call asks: more are refused (a server
/// sending requests without end does not grow the wait without end).
pub(crate) const MAX_HEARD: usize = 10_000;

/// MCP 2025-11-25: offers the server's request `message` to the desk in `slot` (made, answering through
/// `mode`, when there is none) as one more input request, handed out with `base` listing it alone as
/// its `inputRequests`. A request without a usable id, a malformed one and one past [`MAX_HEARD`] are
/// refused (the malformed one also ends the call: `Stop::Fail`); `Stop::Return` (no answer may be
/// given here) comes with the status handed out.
#[inline(never)]
pub(crate) fn hear<J: Json>(
    slot: &mut Option<Box<InputDesk<J>>>,
    (mode, chunk): (InputMode, ReadChunk),
    message: &J,
    base: &J,
    out: &mut Queue<J>,
) -> Result<(), (Stop<J>, J)> {
    let desk = slot.get_or_insert_with(|| Box::new(InputDesk::new(mode, chunk)));
    let request = as_input_request(message).filter(|_| desk.reserved.len() < MAX_HEARD);
    let Some((key, request)) = request else {
        out.push_back(refusal(message, CODE_INVALID_PARAMS, "not a request this client answers (no id, or too many)"));
        return Ok(());
    };
    let status = base.with_field("inputRequests", Some(J::object(vec![(key.as_str(), request.clone())])));
    match desk.add(key, request, &status, out) {
        Ok(()) => Ok(()),
        Err(Stop::Fail(f)) => {
            out.push_back(refusal(message, CODE_INVALID_PARAMS, "the request is malformed"));
            Err((Stop::Fail(f), status))
        }
        Err(Stop::Return) => Err((Stop::Return, status)),
    }
}

/// The best-effort answer refusing a server's request `message` (MCP 2025-11-25): the JSON-RPC error
/// `code` with a message saying `why`, sent detached (a request is never left unanswered).
pub(crate) fn refusal<J: Json>(message: &J, code: i64, why: &str) -> Action<J> {
    let method = message.get_str("method").unwrap_or_default();
    let error = J::object(vec![
        ("code", J::number(code as f64)),
        ("message", J::string(&[method.as_str(), ": ", why].concat())),
    ]);
    let id = message.get("id").unwrap_or_else(J::null);
    Action::SendDetached { call: Call::Respond { id, answer: Err(error) }, timeout_ms: DETACHED_CANCEL_TIMEOUT_MS }
}

fn invalid_response<J: Json>(response: J) -> J {
    J::object(vec![("type", J::string("invalid_response")), ("response", response)])
}

/// `true` for a handler's plain result (`ElicitResult`, `CreateMessageResult`, `ListRootsResult`): an
/// object (not an array) without a `tag` field.
fn plain_result<J: Json>(value: &J) -> bool {
    value.kind() == crate::json::Kind::Object && value.get("tag").is_none()
}
