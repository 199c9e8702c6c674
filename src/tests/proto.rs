//! The wire helpers on their own: capability merging, discovery, URL and answer checks, rejections.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, clippy::indexing_slicing)]

use crate::json::is_web_url;
use crate::proto::input::{check_create_message_result, check_elicit_result, check_list_roots_result};
use crate::proto::request::{deep_merge, server_supports, with_tasks_extension};
use crate::proto::rpc::{read_rejection, RequestEnd};
use serde_json::json;

#[test]
fn capabilities_merge_deeply_without_touching_the_base() {
    let base = json!({"elicitation": {"form": {}}, "extensions": {"other/ext": {"a": 1}}});
    let merged = with_tasks_extension(Some(&base));
    assert_eq!(
        merged,
        json!({"elicitation": {"form": {}}, "extensions": {"other/ext": {"a": 1}, "io.modelcontextprotocol/tasks": {}}})
    );
    assert_eq!(base["extensions"].as_object().unwrap().len(), 1);
    assert_eq!(
        with_tasks_extension::<serde_json::Value>(None),
        json!({"extensions": {"io.modelcontextprotocol/tasks": {}}})
    );
    assert_eq!(
        deep_merge(&json!({"a": {"b": 1, "c": 2}}), &json!({"a": {"c": 3}, "d": 4})),
        json!({"a": {"b": 1, "c": 3}, "d": 4})
    );
}

#[test]
fn server_support_is_read_from_discover_or_capabilities() {
    let caps = json!({"tools": {}, "extensions": {"io.modelcontextprotocol/tasks": {}}});
    assert!(server_supports(&json!({"resultType": "complete", "capabilities": caps})));
    assert!(server_supports(&caps));
    assert!(!server_supports(&json!({"capabilities": {"tools": {}}})));
    assert!(!server_supports(&json!({"extensions": {"io.modelcontextprotocol/tasks": null}})));
    assert!(!server_supports(&json!(null)));
}

#[test]
fn only_absolute_web_urls_pass() {
    for ok in ["https://example.com", "http://127.0.0.1:8080/x?y=1", "HTTPS://EXAMPLE.COM/a"] {
        assert!(is_web_url(ok), "{ok}");
    }
    for bad in
        ["javascript:alert(1)", "https://", "https:///path", "ftp://x", "//example.com", "https://a b", "https://a\n"]
    {
        assert!(!is_web_url(bad), "{bad}");
    }
}

#[test]
fn answer_checks() {
    assert!(
        check_elicit_result(&json!({"action": "accept", "content": {"a": "x", "b": 2, "c": true, "d": ["x"]}})).is_ok()
    );
    assert!(check_elicit_result(&json!({"action": "cancel"})).is_ok());
    assert!(check_elicit_result(&json!({"action": "accept", "content": {"d": [1]}})).is_err());
    assert!(check_create_message_result(
        &json!({"role": "assistant", "content": [{"type": "text", "text": "a"}], "model": "m", "stopReason": "endTurn"})
    )
    .is_ok());
    assert!(check_create_message_result(&json!({"role": "assistant", "content": {"text": "no type"}, "model": "m"}))
        .is_err());
    assert!(check_list_roots_result(&json!({"roots": []})).is_ok());
    assert!(check_list_roots_result(&json!({"roots": [{"uri": "file:///a", "name": "a"}]})).is_ok());
    assert!(check_list_roots_result(&json!({"roots": ["file:///a"]})).is_err());
}

#[test]
fn a_rejection_is_a_json_rpc_error_only_with_an_integer_code_and_a_message() {
    assert!(
        matches!(read_rejection(json!({"code": -32602, "message": "x", "data": 1})), RequestEnd::RpcError(e) if e.code == -32602)
    );
    for transport in [
        json!({"code": "ECONNREFUSED", "message": "x"}),
        json!({"code": 1.5, "message": "x"}),
        json!({"message": "x"}),
        json!("boom"),
        json!(null),
    ] {
        assert!(matches!(read_rejection(transport.clone()), RequestEnd::Transport(_)), "{transport}");
    }
}

#[test]
fn wire_enums_serialize_as_their_wire_strings() {
    use crate::engine::ErrorKind;
    use crate::proto::task::TaskState;
    assert_eq!(serde_json::to_value(TaskState::InputRequired).unwrap(), json!("input_required"));
    assert_eq!(serde_json::from_value::<TaskState>(json!("cancelled")).unwrap(), TaskState::Cancelled);
    assert!(serde_json::from_value::<TaskState>(json!("paused")).is_err());
    for k in [ErrorKind::Server, ErrorKind::Transport, ErrorKind::Protocol, ErrorKind::Execution] {
        assert_eq!(serde_json::to_value(k).unwrap(), json!(k.as_str()));
    }
}
