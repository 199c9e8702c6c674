//! The JSON-RPC channel under every message-based transport (stdio, ports, SDK transports), with no
//! I/O: it numbers requests, matches responses by id, routes notifications to the open listen streams,
//! builds `notifications/cancelled` for requests given up, and says what a closing channel fails.
//! The transports move its messages over "send one message" / "a message arrived".
//!
//! Routing rules:
//! - a response (`id` with `result` or `error`) settles the request or listen with that id; a response
//!   for an id nothing waits for is ignored (never fatal);
//! - a notification carrying `_meta["io.modelcontextprotocol/subscriptionId"]` goes to the listen
//!   whose request id that is; without one, a `notifications/tasks` goes to every open listen whose
//!   `taskIds` holds its `taskId`, and an acknowledgement to every listen not yet acknowledged whose
//!   `taskIds` meet the acknowledged ones; anything else is ignored;
//! - a message that is neither (a server→client request, garbage) is ignored.

use crate::json::Json;
use crate::proto::META_SUBSCRIPTION_ID;
use crate::text::decimal;

/// What an arriving message is for.
#[derive(Clone, Debug, PartialEq)]
pub enum Routed<V> {
    /// The response to request `id`: its `result`, or its `error` object.
    Reply {
        /// The request's id.
        id: u64,
        /// `Ok(result)` or `Err(error)`.
        outcome: Result<V, V>,
    },
    /// A message for the listen stream opened by request `id` (its acknowledgement, a notification).
    Stream {
        /// The listen request's id.
        id: u64,
        /// The message, as it arrived.
        message: V,
    },
    /// The listen stream `id` ended: with its result (`None`) or its error object.
    StreamEnd {
        /// The listen request's id.
        id: u64,
        /// The error the server ended it with, if any.
        error: Option<V>,
    },
}

/// One open listen stream.
#[derive(Clone, Debug)]
struct Listen {
    id: u64,
    task_ids: Vec<String>,
    acked: bool,
}

/// The channel's bookkeeping.
#[derive(Clone, Debug, Default)]
pub struct Channel {
    last_id: u64,
    pending: Vec<u64>,
    listens: Vec<Listen>,
    /// With a prefix, ids go out as strings (`"<prefix><n>"`), so they never collide with the
    /// numeric ids of another client sharing the transport.
    prefix: Option<String>,
}

impl Channel {
    /// A channel with nothing in flight.
    pub fn new() -> Self {
        Self::default()
    }

    /// A channel whose ids are strings `"<prefix><n>"`.
    pub fn with_prefix(prefix: &str) -> Self {
        Self { prefix: Some(prefix.to_owned()), ..Self::default() }
    }

    /// The JSON value of id `n`.
    fn id_value<J: Json>(&self, n: u64) -> J {
        match &self.prefix {
            Some(p) => J::string(&[p.as_str(), &decimal(n)].concat()),
            None => J::number(n as f64),
        }
    }

    /// The id `v` (a message's `id`) stands for, when it is one this channel makes.
    pub fn as_id<J: Json>(&self, v: &J) -> Option<u64> {
        match &self.prefix {
            Some(p) => v.as_str().and_then(|s| s.strip_prefix(p.as_str()).and_then(parse_decimal)),
            None => crate::json::as_integer(v.as_f64()?).and_then(|i| u64::try_from(i).ok()),
        }
        .filter(|i| *i > 0)
    }

    fn next_id(&mut self) -> u64 {
        self.last_id += 1;
        self.last_id
    }

    /// A new request: its id (unique on this channel) and the message to send.
    pub fn request<J: Json>(&mut self, method: &str, params: J) -> (u64, J) {
        let id = self.next_id();
        self.pending.push(id);
        (id, message(self.id_value(id), method, params))
    }

    /// A new `subscriptions/listen`: its id (the subscription id) and the message to send. The stream
    /// takes the notifications for the `taskIds` of `params.notifications`.
    pub fn listen<J: Json>(&mut self, params: J) -> (u64, J) {
        let id = self.next_id();
        let task_ids = strings(params.get("notifications").and_then(|n| n.get("taskIds")));
        self.listens.push(Listen { id, task_ids, acked: false });
        (id, message(self.id_value(id), "subscriptions/listen", params))
    }

    /// The requests waiting for their response (not the listens).
    pub fn pending(&self) -> Vec<u64> {
        self.pending.clone()
    }

    /// Forgets request `id` (it failed locally); `true` when it was pending.
    pub fn forget(&mut self, id: u64) -> bool {
        let at = self.pending.iter().position(|p| *p == id);
        at.map(|at| self.pending.remove(at)).is_some()
    }

    /// `true` while request or listen `id` waits for its response.
    pub fn is_open(&self, id: u64) -> bool {
        self.pending.contains(&id) || self.listens.iter().any(|l| l.id == id)
    }

    /// Routes an arriving message (see the module rules); an empty list when nothing waits for it.
    pub fn receive<J: Json>(&mut self, msg: &J) -> Vec<Routed<J>> {
        if !msg.is_object() {
            return Vec::new();
        }
        let method = msg.get_str("method");
        match (msg.get("id"), method) {
            (Some(id), None) => self.respond(&id, msg).into_iter().collect(),
            (None, Some(method)) => self.notify(&method, msg),
            _ => Vec::new(), // a request from the server, or not JSON-RPC: nothing waits for it
        }
    }

    fn respond<J: Json>(&mut self, id: &J, msg: &J) -> Option<Routed<J>> {
        let id = self.as_id(id)?;
        let outcome = match (msg.get("result"), msg.get("error")) {
            (_, Some(e)) => Err(e),
            (Some(r), None) => Ok(r),
            (None, None) => return None,
        };
        if let Some(at) = self.pending.iter().position(|p| *p == id) {
            self.pending.remove(at);
            return Some(Routed::Reply { id, outcome });
        }
        let at = self.listens.iter().position(|l| l.id == id)?;
        self.listens.remove(at);
        Some(Routed::StreamEnd { id, error: outcome.err() })
    }

    fn notify<J: Json>(&mut self, method: &str, msg: &J) -> Vec<Routed<J>> {
        let params = msg.get("params").unwrap_or_else(J::null);
        let subscription = params.get("_meta").and_then(|m| m.get(META_SUBSCRIPTION_ID)).and_then(|s| self.as_id(&s));
        let targets: Vec<u64> = match subscription {
            Some(sub) => self.listens.iter().filter(|l| l.id == sub).map(|l| l.id).collect(),
            None if method == "notifications/tasks" => {
                let task = params.get_str("taskId");
                self.listens
                    .iter()
                    .filter(|l| task.as_ref().is_some_and(|t| l.task_ids.contains(t)))
                    .map(|l| l.id)
                    .collect()
            }
            None if method == "notifications/subscriptions/acknowledged" => {
                let acked = strings(params.get("notifications").and_then(|n| n.get("taskIds")));
                let meets = |l: &Listen| l.task_ids.iter().any(|t| acked.contains(t));
                self.listens.iter().filter(|l| !l.acked && meets(l)).map(|l| l.id).collect()
            }
            None => Vec::new(),
        };
        if method == "notifications/subscriptions/acknowledged" {
            for l in self.listens.iter_mut().filter(|l| targets.contains(&l.id)) {
                l.acked = true;
            }
        }
        targets.into_iter().map(|id| Routed::Stream { id, message: msg.clone() }).collect()
    }

    /// Gives up request or listen `id` (aborted, timed out, closed by the caller): the
    /// `notifications/cancelled` to send, or `None` when nothing with that id was open.
    pub fn cancel<J: Json>(&mut self, id: u64, reason: &str) -> Option<J> {
        let was_pending = self.pending.iter().position(|p| *p == id).map(|at| self.pending.remove(at)).is_some();
        let was_listen = self.listens.iter().position(|l| l.id == id).map(|at| self.listens.remove(at)).is_some();
        if !(was_pending || was_listen) {
            return None;
        }
        let params = J::object(vec![("requestId", self.id_value(id)), ("reason", J::string(reason))]);
        Some(J::object(vec![
            ("jsonrpc", J::string("2.0")),
            ("method", J::string("notifications/cancelled")),
            ("params", params),
        ]))
    }

    /// The channel closed (process exit, port closed): every request and listen still open, which all
    /// fail; the channel is empty afterwards.
    pub fn close(&mut self) -> (Vec<u64>, Vec<u64>) {
        let requests = std::mem::take(&mut self.pending);
        let listens = std::mem::take(&mut self.listens).into_iter().map(|l| l.id).collect();
        (requests, listens)
    }
}

/// `{jsonrpc: "2.0", id, method, params}`.
fn message<J: Json>(id: J, method: &str, params: J) -> J {
    J::object(vec![("jsonrpc", J::string("2.0")), ("id", id), ("method", J::string(method)), ("params", params)])
}

/// A decimal whole number (ASCII digits only, no sign, at most 19 digits).
fn parse_decimal(s: &str) -> Option<u64> {
    if s.is_empty() || s.len() > 19 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0u64, |n, b| n * 10 + u64::from(b - b'0')))
}

fn strings<J: Json>(v: Option<J>) -> Vec<String> {
    v.and_then(|a| a.items()).map(|items| items.iter().filter_map(Json::as_str).collect()).unwrap_or_default()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::indexing_slicing)]
mod tests {
    use super::{Channel, Routed};
    use serde_json::{json, Value};

    fn listen(ch: &mut Channel, ids: &[&str]) -> u64 {
        ch.listen(json!({"notifications": {"taskIds": ids}})).0
    }

    #[test]
    fn ids_are_unique_and_responses_match_by_id_out_of_order() {
        let mut ch = Channel::new();
        let (a, ma) = ch.request("tasks/get", json!({"taskId": "t"}));
        let (b, _) = ch.request("tools/call", json!({"name": "x"}));
        assert_ne!(a, b);
        assert_eq!(ma, json!({"jsonrpc": "2.0", "id": a, "method": "tasks/get", "params": {"taskId": "t"}}));
        assert_eq!(
            ch.receive(&json!({"jsonrpc": "2.0", "id": b, "result": {"x": 1}})),
            [Routed::Reply { id: b, outcome: Ok(json!({"x": 1})) }]
        );
        let err = json!({"code": -32602, "message": "unknown task"});
        assert_eq!(
            ch.receive(&json!({"jsonrpc": "2.0", "id": a, "error": err})),
            [Routed::Reply { id: a, outcome: Err(err) }]
        );
        assert!(!ch.is_open(a) && !ch.is_open(b));
    }

    #[test]
    fn a_response_for_an_unknown_or_settled_id_and_garbage_are_ignored() {
        let mut ch = Channel::new();
        let (a, _) = ch.request("ping", json!({}));
        for junk in [
            json!({"id": 99, "result": {}}),
            json!(null),
            json!([1]),
            json!({"id": a}),
            json!({"id": a, "method": "sampling/createMessage"}),
        ] {
            assert!(ch.receive(&junk).is_empty(), "{junk}");
        }
        assert_eq!(ch.receive(&json!({"id": a, "result": {}})).len(), 1);
        assert!(ch.receive(&json!({"id": a, "result": {}})).is_empty(), "a second response for a settled id");
    }

    #[test]
    fn notifications_go_to_their_subscription_else_by_task_id() {
        let mut ch = Channel::new();
        let one = listen(&mut ch, &["t1"]);
        let two = listen(&mut ch, &["t1", "t2"]);
        let tagged = json!({"method": "notifications/tasks", "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": two}, "taskId": "t1"}});
        assert_eq!(ch.receive(&tagged), [Routed::Stream { id: two, message: tagged.clone() }]);
        let untagged = json!({"method": "notifications/tasks", "params": {"taskId": "t1"}});
        let ids: Vec<u64> = ch
            .receive(&untagged)
            .iter()
            .map(|r| match r {
                Routed::Stream { id, .. } => *id,
                _ => 0,
            })
            .collect();
        assert_eq!(ids, [one, two]);
        let other = json!({"method": "notifications/tasks", "params": {"taskId": "t9"}});
        assert!(ch.receive(&other).is_empty());
        assert!(ch.receive(&json!({"method": "notifications/message", "params": {}})).is_empty());
    }

    #[test]
    fn an_untagged_acknowledgement_goes_to_the_listens_it_answers_once() {
        let mut ch = Channel::new();
        let one = listen(&mut ch, &["t1"]);
        let two = listen(&mut ch, &["t2"]);
        let ack = |ids: Value| json!({"method": "notifications/subscriptions/acknowledged", "params": {"notifications": {"taskIds": ids}}});
        assert_eq!(ch.receive(&ack(json!(["t2"]))), [Routed::Stream { id: two, message: ack(json!(["t2"])) }]);
        assert_eq!(
            ch.receive(&ack(json!(["t1", "t2"]))),
            [Routed::Stream { id: one, message: ack(json!(["t1", "t2"])) }]
        );
    }

    #[test]
    fn the_listen_response_ends_its_stream() {
        let mut ch = Channel::new();
        let a = listen(&mut ch, &["t1"]);
        let b = listen(&mut ch, &["t1"]);
        assert_eq!(
            ch.receive(&json!({"id": a, "result": {"resultType": "complete"}})),
            [Routed::StreamEnd { id: a, error: None }]
        );
        let e = json!({"code": -32601, "message": "no"});
        assert_eq!(ch.receive(&json!({"id": b, "error": e})), [Routed::StreamEnd { id: b, error: Some(e) }]);
        assert!(ch.receive(&json!({"method": "notifications/tasks", "params": {"taskId": "t1"}})).is_empty());
    }

    #[test]
    fn with_a_prefix_ids_are_strings_and_other_ids_are_not_ours() {
        let mut ch = Channel::with_prefix("mtw-");
        let (a, m) = ch.request("ping", json!({}));
        assert_eq!(m["id"], json!(format!("mtw-{a}")));
        assert!(ch.receive(&json!({"id": a, "result": {}})).is_empty(), "a numeric id is another client's");
        assert!(ch.receive(&json!({"id": "other-1", "result": {}})).is_empty());
        assert!(ch.receive(&json!({"id": "mtw-x1", "result": {}})).is_empty());
        assert_eq!(ch.receive(&json!({"id": format!("mtw-{a}"), "result": {}})).len(), 1);
        let (b, _) = ch.request("ping", json!({}));
        let n: Value = ch.cancel(b, "gone").unwrap();
        assert_eq!(n["params"]["requestId"], json!("mtw-2"));
    }

    #[test]
    fn cancelling_builds_notifications_cancelled_once_and_close_fails_everything_open() {
        let mut ch = Channel::new();
        let (a, _) = ch.request("tasks/get", json!({}));
        let l = listen(&mut ch, &["t"]);
        let (b, _) = ch.request("tasks/get", json!({}));
        let n: Value = ch.cancel(a, "timeout").unwrap();
        assert_eq!(
            n,
            json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": a, "reason": "timeout"}})
        );
        assert!(ch.cancel::<Value>(a, "again").is_none());
        assert!(ch.receive(&json!({"id": a, "result": {}})).is_empty(), "a late response after the cancel");
        assert_eq!(ch.close(), (vec![b], vec![l]));
        assert!(!ch.is_open(b) && !ch.is_open(l));
    }
}
