// Renders input requests as real UI: an elicitation form generated from its requestedSchema, and the
// consent box of a url-mode elicitation. Each calls `done(handlerOutcome)` once the user decides.

const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null));
  return node;
};

/** A handler answer: the plain ElicitResult (handlers may return it as the official SDK's do). */
const answer = (action, content) => (content ? { action, content } : { action });

/** One input for a primitive schema property. */
function field(name, prop, required) {
  const title = prop.title ?? name;
  const options = prop.enum ?? prop.oneOf?.map((o) => o.const);
  let input;
  if (options) {
    const labels = prop.enumNames ?? prop.oneOf?.map((o) => o.title ?? o.const) ?? options;
    input = el("select", { name, required }, options.map((v, i) => el("option", { value: v, selected: v === prop.default }, String(labels[i] ?? v))));
  } else if (prop.type === "boolean") {
    input = el("input", { type: "checkbox", name, checked: prop.default === true });
  } else if (prop.type === "number" || prop.type === "integer") {
    input = el("input", { type: "number", name, required, min: prop.minimum, max: prop.maximum, step: prop.type === "integer" ? 1 : "any", value: prop.default });
  } else {
    const type = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" }[prop.format] ?? "text";
    input = el("input", { type, name, required, minlength: prop.minLength, maxlength: prop.maxLength, value: prop.default });
  }
  return el("label", { class: "field" }, el("span", {}, title, required ? el("span", { class: "req", title: "required" }, "*") : null, prop.description ? ` — ${prop.description}` : ""), input);
}

/** Reads the form back into ElicitResult content, typed by the schema. */
function read(form, properties) {
  const content = {};
  for (const [name, prop] of Object.entries(properties)) {
    const input = form.elements.namedItem(name);
    if (!input) continue;
    if (prop.type === "boolean") content[name] = input.checked;
    else if (input.value === "") continue;
    else if (prop.type === "integer") content[name] = Math.trunc(Number(input.value));
    else if (prop.type === "number") content[name] = Number(input.value);
    else content[name] = input.value;
  }
  return content;
}

export function renderForm(params, { key }, done) {
  const properties = params.requestedSchema?.properties ?? {};
  const required = new Set(params.requestedSchema?.required ?? []);
  const form = el("form", { class: "ask", "data-key": key },
    el("div", { class: "question" }, params.message),
    Object.entries(properties).map(([name, prop]) => field(name, prop, required.has(name))),
    el("div", { class: "actions" },
      el("button", { type: "submit" }, "Submit"),
      el("button", { type: "button", class: "secondary", "data-action": "decline", onclick: () => done(answer("decline")) }, "Decline"),
      el("button", { type: "button", class: "secondary", "data-action": "cancel", onclick: () => done(answer("cancel")) }, "Cancel")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    done(answer("accept", read(form, properties)));
  });
  return form;
}

export function renderUrlConsent(params, { key }, done) {
  const url = new URL(params.url);
  const shown = el("div", { class: "url" }, `${url.protocol}//`, el("b", {}, url.host), `${url.pathname}${url.search}${url.hash}`);
  return el("div", { class: "ask", "data-key": key },
    el("div", { class: "question" }, params.message),
    el("div", { class: "muted" }, "The server asks you to open this address:"),
    shown,
    el("div", { class: "actions" },
      el("button", { type: "button", "data-action": "consent", onclick: () => { window.open(url.href, "_blank", "noopener,noreferrer"); done(answer("accept")); } }, "Open and consent"),
      el("button", { type: "button", class: "secondary", "data-action": "decline", onclick: () => done(answer("decline")) }, "Decline")));
}
