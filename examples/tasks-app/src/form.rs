//! The input handler for form elicitations: it shows the request's form in the page (built with
//! web-sys from its `requestedSchema`) and resolves with the user's [`Answer`] when they submit it,
//! decline it, or when the library no longer wants the answer (the task moved on, was cancelled, or
//! the wait ended).

use crate::ui::{self, describe};
use mcp_tasks_wasm::{handler, Answer, AskContext, HandlerFn};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, Element, Event, EventTarget, HtmlFormElement, HtmlInputElement};

/// The `form` handler of a wait: shows each form request in `container`.
pub fn form_handler(container: Element) -> HandlerFn {
    handler(move |params, context| {
        let container = container.clone();
        async move {
            match ask(&container, &params, &context).await {
                Ok(answer) => answer,
                // The wait ends with an `execution` error carrying this reason: the page shows it.
                Err(e) => Answer::Error(JsValue::from_str(&format!("the form failed: {}", describe(&e)))),
            }
        }
    })
}

/// How a field's value is read back.
#[derive(Clone, Copy)]
enum Kind {
    /// A string (`type: "string"`, and anything this page does not know).
    Text,
    /// `type: "number"`.
    Number,
    /// `type: "integer"`.
    Integer,
    /// `type: "boolean"`: a checkbox.
    Boolean,
}

/// One field of the form: its property name, kind and input.
struct Field {
    name: String,
    kind: Kind,
    input: HtmlInputElement,
}

/// A JS value as JSON (through `JSON.stringify`): the request's params are small.
fn to_json(value: &JsValue) -> Result<Value, JsValue> {
    let text = js_sys::JSON::stringify(value)?.as_string().unwrap_or_default();
    serde_json::from_str(&text).map_err(|e| JsValue::from_str(&format!("params are not JSON: {e}")))
}

/// Shows the form, waits for the user (or for the answer to be no longer wanted), removes the form.
async fn ask(container: &Element, params: &JsValue, context: &AskContext) -> Result<Answer, JsValue> {
    let doc = ui::document()?;
    let params = to_json(params)?;
    let (form, fields) = build(&doc, &params, context.key.as_deref().unwrap_or(""))?;
    container.append_child(&form)?;
    let choice = wait_for_user(&form, &context.signal).await;
    form.remove();
    match choice?.as_string().as_deref() {
        Some("submit") => Ok(Answer::accept(&Value::Object(read(&fields)))),
        Some("decline") => Ok(Answer::decline()),
        // Not wanted any more: the library ignores this answer.
        _ => Ok(Answer::Error(JsValue::from_str("the form was closed"))),
    }
}

/// The form for `params` (`message`, `requestedSchema`), with its fields.
fn build(doc: &Document, params: &Value, key: &str) -> Result<(HtmlFormElement, Vec<Field>), JsValue> {
    let form: HtmlFormElement = doc.create_element("form")?.dyn_into()?;
    form.set_class_name("ask");
    form.set_attribute("data-key", key)?;
    let message = params.get("message").and_then(Value::as_str).unwrap_or("The task asks for input:");
    let text = ui::element(doc, "p", message)?;
    form.append_child(&text)?;

    let schema = params.get("requestedSchema");
    let required: Vec<&str> = schema
        .and_then(|s| s.get("required"))
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut fields = Vec::new();
    let properties = schema.and_then(|s| s.get("properties")).and_then(Value::as_object);
    for (name, property) in properties.into_iter().flatten() {
        let field = field(doc, name, property, required.contains(&name.as_str()))?;
        let label = ui::element(doc, "label", property.get("title").and_then(Value::as_str).unwrap_or(name))?;
        label.append_child(&field.input)?;
        form.append_child(&label)?;
        fields.push(field);
    }

    let send = ui::element(doc, "button", "Send")?;
    send.set_attribute("type", "submit")?;
    let decline = ui::element(doc, "button", "Decline")?;
    decline.set_attribute("type", "button")?;
    decline.set_attribute("data-action", "decline")?;
    form.append_child(&send)?;
    form.append_child(&decline)?;
    Ok((form, fields))
}

/// The input of the property `name`.
fn field(doc: &Document, name: &str, property: &Value, required: bool) -> Result<Field, JsValue> {
    let input: HtmlInputElement = doc.create_element("input")?.dyn_into()?;
    input.set_name(name);
    input.set_required(required);
    let kind = match property.get("type").and_then(Value::as_str) {
        Some("number") => Kind::Number,
        Some("integer") => Kind::Integer,
        Some("boolean") => Kind::Boolean,
        _ => Kind::Text,
    };
    match kind {
        Kind::Text => input.set_type("text"),
        Kind::Number => {
            input.set_type("number");
            input.set_step("any");
        }
        Kind::Integer => input.set_type("number"),
        Kind::Boolean => {
            input.set_type("checkbox");
            input.set_required(false); // a required checkbox could only be answered `true`
        }
    }
    match property.get("default") {
        Some(Value::Bool(on)) => input.set_checked(*on),
        Some(Value::String(s)) => input.set_value(s),
        Some(Value::Number(n)) => input.set_value(&n.to_string()),
        _ => {}
    }
    Ok(Field { name: name.to_owned(), kind, input })
}

/// The answers in the fields (empty optional fields left out).
fn read(fields: &[Field]) -> Map<String, Value> {
    let mut content = Map::new();
    for f in fields {
        let value = match f.kind {
            Kind::Boolean => Some(Value::Bool(f.input.checked())),
            _ if f.input.value().is_empty() => None,
            Kind::Text => Some(Value::String(f.input.value())),
            Kind::Number => serde_json::Number::from_f64(f.input.value_as_number()).map(Value::Number),
            Kind::Integer => Some(Value::from(f.input.value_as_number() as i64)),
        };
        if let Some(v) = value {
            content.insert(f.name.clone(), v);
        }
    }
    content
}

/// An event listener: its target, its event and its closure.
type Listener<'a> = (&'a EventTarget, &'static str, Closure<dyn FnMut(Event)>);

/// Resolves with `"submit"`, `"decline"` or `"abort"`: the first of the form's submit, its Decline
/// button, and `signal` (the answer is no longer wanted). The listeners are removed before their
/// closures are dropped.
async fn wait_for_user(form: &HtmlFormElement, signal: &web_sys::AbortSignal) -> Result<JsValue, JsValue> {
    let mut resolve = None;
    let promise = js_sys::Promise::new(&mut |ok, _| resolve = Some(ok));
    let resolve = resolve.ok_or_else(|| JsValue::from_str("the Promise executor did not run"))?;
    if signal.aborted() {
        return Ok(JsValue::from_str("abort"));
    }
    let choose = |choice: &'static str, prevent: bool| {
        let resolve = resolve.clone();
        Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
            let is_decline = target.and_then(|t| t.get_attribute("data-action")).as_deref() == Some("decline");
            if choice == "decline" && !is_decline {
                return; // a click elsewhere in the form
            }
            if prevent {
                event.prevent_default();
            }
            let _ = resolve.call1(&JsValue::NULL, &JsValue::from_str(choice));
        })
    };
    let listeners: [Listener; 3] = [
        (form, "submit", choose("submit", true)),
        (form, "click", choose("decline", false)),
        (signal, "abort", choose("abort", false)),
    ];
    let added: Result<(), JsValue> = listeners.iter().try_for_each(|(target, event, closure)| {
        target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref())
    });
    let choice = match added {
        Ok(()) => JsFuture::from(promise).await,
        Err(e) => Err(e),
    };
    for (target, event, closure) in &listeners {
        let _ = target.remove_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    }
    choice
}
