//! `callTool`: one task-augmented `tools/call`, with MRTR rounds answered on the way. On an MCP
//! 2025-11-25 server: `task: {ttl}` only for a tool whose `execution.taskSupport` (from `tools/list`,
//! when the server declared task-augmented `tools/call`) is `required` or `optional`, else a plain call
//! whose own input requests (the server's JSON-RPC requests on it) go to the input handlers.

use super::flights::Flights;
use super::inputs::{hear, refusal, InputDesk, Stop};
use super::outcome::CODE_NOT_FOUND;
use super::settings::{InputMode, ReadChunk, TimeLimits, DEFAULT_MIN_POLL_INTERVAL_MS, DEFAULT_TASK_TTL_MS};
use super::{later, next_queued, Action, End, Event, Machine, Millis, Outcome, Queue, TaskError};
use crate::json::Json;
use crate::proto::call_result::{read_call_result, CallReply, Mrtr};
use crate::proto::core_tasks::{find_tool, read_core_call_result, CoreCallReply, Generation, TaskSupport};
use crate::proto::request::Call;
use crate::proto::rpc::RequestEnd;

/// The settings of a `tools/call` (what `callTool`'s options become).
#[derive(Clone, Debug, Default)]
pub(crate) struct CallSettings<V> {
    /// Time bounds (the whole call, MRTR rounds and handlers included).
    pub limits: TimeLimits,
    /// Where MRTR answers come from.
    pub input: InputMode,
    /// Answers to send with the first request (continuing an MRTR round by hand).
    pub input_responses: Option<V>,
    /// The `requestState` to echo with the first request (continuing an MRTR round by hand).
    pub request_state: Option<V>,
    /// Input requests read per step.
    pub read_chunk: ReadChunk,
    /// The server's generation.
    pub generation: Generation,
    /// MCP 2025-11-25: the `ttl` of the task the call creates (`None`: [`DEFAULT_TASK_TTL_MS`]).
    pub task_ttl_ms: Option<u64>,
}

/// The least time between two `tools/call`s of one call (the default `minPollIntervalMs`): a server
/// that answers every MRTR round at once gets a round every 100 ms, not a flood.
pub(crate) const ROUND_FLOOR_MS: u64 = DEFAULT_MIN_POLL_INTERVAL_MS;

/// The most `tools/list` pages read to find the tool (a server that pages forever gets a plain call).
const MAX_TOOL_PAGES: u32 = 100;

/// What a request of the call was for.
const CALL: u32 = 0;
const LIST: u32 = 1;
const RESPOND: u32 = 2;

/// MCP 2025-11-25: what the call knows of the server.
#[derive(Debug)]
struct Core<V> {
    /// `task: {ttl}` for the tool (`None`: a plain call), once known.
    ttl_ms: Option<u64>,
    /// `tools/list` pages read.
    pages: u32,
    /// The plain call's input: the desk for the server's requests on it.
    desk: Option<Box<InputDesk<V>>>,
}

/// The `callTool` machine.
#[derive(Debug)]
pub(crate) struct CallTool<V> {
    name: String,
    arguments: Option<V>,
    timeout_ms: Option<u64>,
    mode: InputMode,
    read_chunk: ReadChunk,
    flights: Flights,
    /// When the last `tools/call` went out.
    last_sent: Millis,
    /// The next round's `(inputResponses, requestState)`, held until [`ROUND_FLOOR_MS`] after the last.
    held: Option<(Option<V>, Option<V>)>,
    /// The MRTR round being answered, with its desk (MRTR keys are their own key space).
    round: Option<(Mrtr<V>, InputDesk<V>)>,
    /// MCP 2025-11-25 (boxed: `None` on a 2026-07-28 server).
    core: Option<Box<Core<V>>>,
    out: Queue<V>,
    done: bool,
}

impl<J: Json> CallTool<J> {
    /// Sends `tools/call` for `name` at `now`.
    #[cfg(any(all(test, not(target_arch = "wasm32")), feature = "fuzzing"))]
    pub(crate) fn new(name: String, arguments: Option<J>, opts: CallSettings<J>, now: Millis) -> Self {
        Self::start(name, arguments, opts, now, now)
    }

    /// Sends `tools/call` for `name` at `now` (on an MCP 2025-11-25 server with tasks, `tools/list`
    /// first), bounded by `timeoutMs` counted from `since`.
    pub(crate) fn start(name: String, arguments: Option<J>, opts: CallSettings<J>, since: Millis, now: Millis) -> Self {
        let deadline = opts.limits.deadline_ms.map(|t| later(since, t));
        let ttl_ms = opts.task_ttl_ms.unwrap_or(DEFAULT_TASK_TTL_MS);
        let core = match opts.generation {
            Generation::Tasks => None,
            Generation::Core { tasks_for_tools } => {
                Some(Box::new(Core { ttl_ms: tasks_for_tools.then_some(ttl_ms), pages: 0, desk: None }))
            }
        };
        let listing = core.as_ref().is_some_and(|c| c.ttl_ms.is_some());
        let mut c = Self {
            name,
            arguments,
            timeout_ms: opts.limits.deadline_ms,
            mode: opts.input,
            read_chunk: opts.read_chunk,
            flights: Flights::new(deadline, opts.limits.request_timeout_ms),
            last_sent: now,
            held: None,
            round: None,
            core,
            out: Queue::new(),
            done: false,
        };
        if opts.limits.deadline_ms == Some(0) || c.flights.past_deadline(now) {
            c.advance(now); // no time at all: the timeout, and nothing sent (as awaitTask)
        } else if listing {
            c.flights.send(LIST, Call::ToolsList { cursor: None }, now, &mut c.out);
        } else {
            c.send(opts.input_responses, opts.request_state, now);
        }
        c
    }

    /// A `tools/list` page arrived (MCP 2025-11-25): the tool's `taskSupport` decides how it is called;
    /// a tool not on the page is looked for on the next one, and one not listed at all is called plain.
    fn on_page(&mut self, page: J, now: Millis) {
        let Some(core) = self.core.as_mut() else { return };
        core.pages += 1;
        match find_tool(&page, &self.name) {
            Err(m) => return self.fail(TaskError::protocol("tools/list", m, page)),
            Ok((None, Some(cursor))) if core.pages < MAX_TOOL_PAGES => {
                self.flights.send(LIST, Call::ToolsList { cursor: Some(cursor) }, now, &mut self.out);
                return;
            }
            Ok((support, _)) => {
                if support.is_none_or(|s| s == TaskSupport::Forbidden) {
                    core.ttl_ms = None;
                }
            }
        }
        self.send(None, None, now);
    }

    /// The server sent a request on the plain call (MCP 2025-11-25): the input handler that fits
    /// answers it, else it is refused with a JSON-RPC error (there is no task to leave it pending on).
    fn on_server_request(&mut self, message: J) {
        let Some(core) = self.core.as_mut().filter(|c| c.ttl_ms.is_none()) else {
            return self.out.push_back(refusal(&message, CODE_NOT_FOUND, "no input is answered here"));
        };
        match hear(&mut core.desk, (self.mode, self.read_chunk), &message, &J::object(vec![]), &mut self.out) {
            Ok(()) => {}
            Err((Stop::Return, _)) => {
                self.out.push_back(refusal(&message, CODE_NOT_FOUND, "no input handler answers it"))
            }
            Err((Stop::Fail(f), _)) => self.fail(f),
        }
    }

    /// A plain call's input answered (MCP 2025-11-25): each answer goes to the server as the response
    /// to its request.
    fn on_core_answer(&mut self, ask: super::AskId, value: J, now: Millis) {
        let Some(desk) = self.core.as_mut().and_then(|c| c.desk.as_mut()) else { return };
        if let Err(Stop::Fail(f)) = desk.answer(ask, &value, &J::null()) {
            return self.fail(f);
        }
        for (key, answer) in desk.take_ready().into_iter().flatten() {
            let call = Call::Respond { id: crate::proto::core_tasks::id_of_key(&key), answer: Ok(answer) };
            self.flights.send(RESPOND, call, now, &mut self.out);
        }
    }

    /// The next round: sent now, or held until [`ROUND_FLOOR_MS`] after the previous one went out.
    fn next_round(&mut self, input_responses: Option<J>, request_state: Option<J>, now: Millis) {
        if now < later(self.last_sent, ROUND_FLOOR_MS) {
            self.held = Some((input_responses, request_state));
        } else {
            self.send(input_responses, request_state, now);
        }
    }

    fn send(&mut self, input_responses: Option<J>, request_state: Option<J>, now: Millis) {
        self.last_sent = now;
        let call = Call::ToolsCall {
            name: self.name.clone(),
            arguments: self.arguments.clone(),
            input_responses,
            request_state,
            task_ttl_ms: self.core.as_ref().and_then(|c| c.ttl_ms),
        };
        self.flights.send(CALL, call, now, &mut self.out);
    }

    fn on_result(&mut self, value: J, now: Millis) {
        if self.core.is_some() {
            return match read_core_call_result(value.clone()) {
                Err(m) => self.fail(TaskError::protocol("tools/call", m, value)),
                Ok(CoreCallReply::Complete(r)) => self.finish(End::Outcome(Outcome::Result(r))),
                Ok(CoreCallReply::Task(view)) => self.finish(End::Outcome(Outcome::Task(view.object))),
            };
        }
        match read_call_result(value.clone()) {
            Err(m) => self.fail(TaskError::protocol("tools/call", m, value)),
            Ok(CallReply::Complete(r)) => self.finish(End::Outcome(Outcome::Result(r))),
            Ok(CallReply::Task(view)) => self.finish(End::Outcome(Outcome::Task(view.object))),
            Ok(CallReply::InputRequired(m)) if m.requests.is_empty() => {
                // Only a requestState: the next round.
                self.next_round(None, m.request_state, now);
            }
            Ok(CallReply::InputRequired(m)) => {
                let mut desk = InputDesk::new(self.mode, self.read_chunk);
                match desk.offer(&m.requests, &m.object, &mut self.out) {
                    Err(Stop::Return) => return self.finish(End::Outcome(Outcome::CallInputRequired(m.object))),
                    Err(Stop::Fail(f)) => return self.fail(f),
                    Ok(()) => {}
                }
                // The desk may still be reading the requests: `read_on` goes on with them.
                self.round = Some((m, desk));
            }
        }
    }

    fn on_answer(&mut self, ask: super::AskId, value: J, now: Millis) {
        let Some((m, desk)) = self.round.as_mut() else { return };
        match desk.answer(ask, &value, &m.object) {
            Err(Stop::Fail(f)) => return self.fail(f),
            Err(Stop::Return) => {
                let status = m.object.clone();
                return self.finish(End::Outcome(Outcome::CallInputRequired(status)));
            }
            Ok(()) => {}
        }
        if desk.busy() {
            return;
        }
        let answers: Vec<(String, J)> = desk.take_ready().into_iter().flatten().collect();
        let request_state = m.request_state.clone();
        self.round = None;
        let responses = J::object(answers.iter().map(|(k, v)| (k.as_str(), v.clone())).collect());
        self.next_round(Some(responses), request_state, now);
    }

    /// The deadline and request timeouts at `now` (`tools/call` is never re-issued: a second call
    /// could create a second task).
    fn advance(&mut self, now: Millis) {
        if self.done {
            return;
        }
        if self.flights.past_deadline(now) {
            let f = TaskError::timeout(("name", &self.name), self.timeout_ms.unwrap_or_default(), None);
            return self.fail(f);
        }
        if let Some(f) = self.flights.take_expired(now, &mut self.out) {
            let failure = super::flights::Lost::Timeout.failure(&f, ("name", &self.name), None);
            return self.fail(failure);
        }
        if now >= later(self.last_sent, ROUND_FLOOR_MS) {
            if let Some((responses, state)) = self.held.take() {
                self.send(responses, state, now);
            }
        }
    }

    /// Reads the next chunk of the round's requests (see [`InputDesk::read_more`]); `true` while more
    /// are left to read.
    fn read_on(&mut self) -> bool {
        let Some((m, desk)) = self.round.as_mut().filter(|(_, d)| d.reading()) else { return false };
        match desk.read_more(&mut self.out) {
            Ok(done) => !done,
            Err(Stop::Return) => {
                let status = m.object.clone();
                self.finish(End::Outcome(Outcome::CallInputRequired(status)));
                false
            }
            Err(Stop::Fail(f)) => {
                self.fail(f);
                false
            }
        }
    }

    fn fail(&mut self, f: TaskError<J>) {
        self.finish(End::Outcome(Outcome::Error(f)));
    }

    fn finish(&mut self, finish: End<J>) {
        if self.done {
            return;
        }
        self.done = true;
        self.flights.abort_all(&mut self.out);
        if let Some((_, mut desk)) = self.round.take() {
            desk.stop_all(&mut self.out);
        }
        if let Some(desk) = self.core.as_mut().and_then(|c| c.desk.as_mut()) {
            desk.stop_all(&mut self.out);
        }
        self.out.push_back(Action::End(finish));
    }
}

impl<J: Json> Machine<J> for CallTool<J> {
    fn handle(&mut self, now: Millis, event: Event<J>) {
        // A driver that took no input before the requests were all read gets them read first.
        while self.read_on() {}
        if self.done {
            return;
        }
        match event {
            Event::Tick | Event::Stream(_) | Event::Session(_) => {}
            Event::ServerRequest { message } => self.on_server_request(message),
            Event::Reply { req, reply } => {
                if let Some(f) = self.flights.land(req) {
                    match reply {
                        RequestEnd::Result(_) if f.purpose == RESPOND => {}
                        RequestEnd::Result(v) if f.purpose == LIST => self.on_page(v, now),
                        RequestEnd::Result(v) => self.on_result(v, now),
                        RequestEnd::RpcError(e) => self.fail(TaskError::rpc(f.method, e)),
                        RequestEnd::Transport(_) if self.flights.past_deadline(now) => {} // the deadline, below
                        RequestEnd::Transport(e) => {
                            let failure = Flights::loss(&f, e, now).failure(&f, ("name", &self.name), None);
                            self.fail(failure);
                        }
                    }
                }
            }
            Event::Answer { ask, value } if self.core.is_some() => self.on_core_answer(ask, value, now),
            Event::Answer { ask, value } => self.on_answer(ask, value, now),
            Event::Cancel => {} // only a wait cancels its task
            Event::Abort { reason, .. } => self.finish(End::Rejection(reason)),
            Event::Throw { error } => self.finish(End::Rejection(error)),
        }
        self.advance(now);
    }

    fn next_action(&mut self) -> Option<Action<J>> {
        if self.out.is_empty() && self.read_on() {
            self.out.push_back(Action::Continue);
        }
        next_queued(&mut self.out)
    }

    fn wake_at(&self) -> Option<Millis> {
        if self.done {
            return None;
        }
        let round = self.held.as_ref().map(|_| later(self.last_sent, ROUND_FLOOR_MS));
        [self.flights.deadline, self.flights.earliest_expiry(), round].into_iter().flatten().min()
    }
}
