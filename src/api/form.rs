//! A form's `requestedSchema`, typed: the spec's flat schema of primitive fields (text, number,
//! boolean, single- and multi-select), each with its title, description, default and bounds — what a
//! form handler needs to draw the form ([`FormRequest::schema`](crate::FormRequest::schema)).

use super::error::Error;
use crate::json::Json;
use wasm_bindgen::JsValue;

/// A form's `requestedSchema`: its fields, in the order the schema lists them.
///
/// ```no_run
/// use mcp_tasks_wasm::{form_handler, Answer, Error, FieldKind};
/// let form = form_handler(|request, _context| async move {
///     let schema = request.schema()?;
///     let mut answer = serde_json::Map::new();
///     for field in &schema.fields {
///         let label = field.title.as_deref().unwrap_or(&field.name); // draw the field with it…
///         let value = match &field.kind {
///             FieldKind::Boolean { default } => serde_json::json!(default.unwrap_or(false)),
///             FieldKind::Choice { options, default } => serde_json::json!(default.clone().or_else(|| options.first().map(|o| o.value.clone()))),
///             _ => serde_json::json!(label),
///         };
///         answer.insert(field.name.clone(), value);
///     }
///     Ok::<_, Error>(Answer::accept(&answer))
/// });
/// ```
#[derive(Clone, Debug, Default)]
pub struct FormSchema {
    /// The fields (`properties`), in order.
    pub fields: Vec<FormField>,
}

/// One field of a form.
#[derive(Clone, Debug)]
pub struct FormField {
    /// Its name: the key of its value in the answer's `content`.
    pub name: String,
    /// `title`: what to label it with (else its name).
    pub title: Option<String>,
    /// `description`: a longer help text.
    pub description: Option<String>,
    /// Whether the schema's `required` lists it.
    pub required: bool,
    /// What kind of value it takes, with its bounds and default.
    pub kind: FieldKind,
    /// Its schema, as it arrived.
    pub schema: JsValue,
}

/// The kind of value a field takes.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum FieldKind {
    /// `type: "string"` (without `enum`/`oneOf`).
    Text {
        /// `minLength`.
        min_length: Option<u64>,
        /// `maxLength`.
        max_length: Option<u64>,
        /// `format`.
        format: Option<TextFormat>,
        /// `default`.
        default: Option<String>,
    },
    /// `type: "number"` or `"integer"`.
    Number {
        /// `true` for `"integer"`.
        integer: bool,
        /// `minimum`.
        minimum: Option<f64>,
        /// `maximum`.
        maximum: Option<f64>,
        /// `default`.
        default: Option<f64>,
    },
    /// `type: "boolean"`.
    Boolean {
        /// `default`.
        default: Option<bool>,
    },
    /// A single-select enum: `enum` (with the legacy `enumNames` as titles) or `oneOf: [{const, title}]`.
    Choice {
        /// The values to choose from, in order.
        options: Vec<Choice>,
        /// `default`.
        default: Option<String>,
    },
    /// A multi-select enum: `type: "array"` with `items.enum` or `items.anyOf: [{const, title}]`.
    MultiChoice {
        /// The values to choose from, in order.
        options: Vec<Choice>,
        /// `minItems`.
        min_items: Option<u64>,
        /// `maxItems`.
        max_items: Option<u64>,
        /// `default`.
        default: Vec<String>,
    },
    /// A schema this library does not read (see [`FormField::schema`]).
    Other,
}

/// One value of a select.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The value the answer carries.
    pub value: String,
    /// What to show for it (else the value).
    pub title: Option<String>,
}

/// A text field's `format`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TextFormat {
    /// `email`.
    Email,
    /// `uri`.
    Uri,
    /// `date` (`YYYY-MM-DD`).
    Date,
    /// `date-time` (RFC 3339).
    DateTime,
    /// Any other format, as named.
    Other(String),
}

impl FormSchema {
    /// Reads a `requestedSchema` (`{type: "object", properties, required?}`); `Err`
    /// ([`Error::InvalidArgument`]) when `properties` is not an object.
    pub(crate) fn read(schema: &JsValue) -> Result<Self, Error> {
        let properties = schema.get("properties").and_then(|p| p.entries());
        let properties = properties
            .ok_or_else(|| Error::InvalidArgument("requestedSchema.properties is not an object".to_owned()))?;
        let required: Vec<String> = schema
            .get("required")
            .and_then(|r| r.items())
            .unwrap_or_default()
            .iter()
            .filter_map(Json::as_str)
            .collect();
        let fields = properties
            .into_iter()
            .map(|(name, s)| FormField {
                required: required.contains(&name),
                title: s.get_str("title"),
                description: s.get_str("description"),
                kind: FieldKind::read(&s),
                schema: s,
                name,
            })
            .collect();
        Ok(Self { fields })
    }

    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&FormField> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A whole non-negative number under `key`.
fn count(schema: &JsValue, key: &str) -> Option<u64> {
    schema.get_f64(key).filter(|n| *n >= 0.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0).map(|n| n as u64)
}

/// The strings of the array under `key`.
fn strings(schema: &JsValue, key: &str) -> Option<Vec<String>> {
    Some(schema.get(key)?.items()?.iter().filter_map(Json::as_str).collect())
}

/// The options of `enum` (titled by `enumNames`, the legacy form) or of `oneOf`/`anyOf` (`key`):
/// `[{const, title}]`.
fn options(schema: &JsValue, key: &str) -> Option<Vec<Choice>> {
    if let Some(values) = strings(schema, "enum") {
        let titles = strings(schema, "enumNames").unwrap_or_default();
        return Some(
            values.into_iter().enumerate().map(|(i, value)| Choice { title: titles.get(i).cloned(), value }).collect(),
        );
    }
    let listed = schema.get(key)?.items()?;
    Some(listed.iter().filter_map(|o| Some(Choice { value: o.get_str("const")?, title: o.get_str("title") })).collect())
}

impl FieldKind {
    fn read(s: &JsValue) -> Self {
        let kind = s.get_str("type");
        match kind.as_deref() {
            Some("string") | None if s.get("enum").is_some() || s.get("oneOf").is_some() => match options(s, "oneOf") {
                Some(options) => Self::Choice { options, default: s.get_str("default") },
                None => Self::Other,
            },
            Some("string") => Self::Text {
                min_length: count(s, "minLength"),
                max_length: count(s, "maxLength"),
                format: s.get_str("format").map(|f| match f.as_str() {
                    "email" => TextFormat::Email,
                    "uri" => TextFormat::Uri,
                    "date" => TextFormat::Date,
                    "date-time" => TextFormat::DateTime,
                    _ => TextFormat::Other(f),
                }),
                default: s.get_str("default"),
            },
            Some(t @ ("number" | "integer")) => Self::Number {
                integer: t == "integer",
                minimum: s.get_f64("minimum"),
                maximum: s.get_f64("maximum"),
                default: s.get_f64("default"),
            },
            Some("boolean") => Self::Boolean { default: s.get("default").and_then(|d| d.as_bool()) },
            Some("array") => match s.get("items").and_then(|items| options(&items, "anyOf")) {
                Some(options) => Self::MultiChoice {
                    options,
                    min_items: count(s, "minItems"),
                    max_items: count(s, "maxItems"),
                    default: strings(s, "default").unwrap_or_default(),
                },
                None => Self::Other,
            },
            _ => Self::Other,
        }
    }
}
