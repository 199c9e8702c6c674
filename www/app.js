// The demo: lists a server's tools, starts any of them as a task (several at once), shows each task
// live, renders elicitation requests as real forms, and shows every outcome. Plain DOM, no framework.
// Tasks on an HTTP server are journaled in IndexedDB: reload the page mid-task and they continue.
import init, { httpClient, directClient, callTool, awaitTask, resultText, indexedDbJournal, pendingTasks } from "../pkg/journal/index.js";
import { renderForm, renderUrlConsent } from "./forms.js";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null) node.setAttribute(k, v);
  }
  node.append(...children.flat().filter((c) => c !== undefined && c !== null));
  return node;
};

const NO_CAPS = { "io.modelcontextprotocol/clientCapabilities": {} };
let base = null; // the connected client (without per-task handlers)
let taskCount = 0;
/** Where the page journals its HTTP tasks (an in-page server dies with the page: nothing to resume). */
const journal = indexedDbJournal("mcp-tasks-wasm-demo");

await init();
fetch(new URL("../pkg/mcp_tasks_wasm_bg.wasm", import.meta.url)).then(async (r) => {
  $("#wasm-size").textContent = `${((await r.arrayBuffer()).byteLength / 1024).toFixed(1)} KB`;
});

const params = new URLSearchParams(location.search);
$("#server-url").value = params.get("server") ?? new URL("/mcp", location.href).href;
if (params.get("kind") === "direct") $("#server-kind").value = "direct";
$("#server-kind").addEventListener("change", () => { $("#server-url").disabled = $("#server-kind").value === "direct"; });
$("#server-url").disabled = $("#server-kind").value === "direct";
$("#connect").addEventListener("submit", (e) => { e.preventDefault(); connect(); });
connect();

async function connect() {
  const status = $("#conn-status");
  status.textContent = "connecting…";
  $("#tools").replaceChildren();
  try {
    if ($("#server-kind").value === "direct") {
      const { createTasksCore } = await import("../tests/server/core.mjs");
      const core = createTasksCore({ pollIntervalMs: 250 });
      base = directClient((method, p, ctx) => core.handle(method, p, ctx));
    } else {
      base = httpClient($("#server-url").value);
    }
    const { tools } = await base.request("tools/list", { _meta: NO_CAPS }, { timeoutMs: 10_000 });
    for (const tool of tools) $("#tools").append(toolItem(tool));
    status.textContent = `${tools.length} tools`;
    if (base.id) for (const entry of await pendingTasks(journal, { server: base.id })) runTask(entry.tool ?? "task", undefined, entry);
  } catch (e) {
    status.textContent = `could not connect: ${e?.message ?? JSON.stringify(e)}`;
  }
}

/** Test-server knobs every task tool accepts; left out of the prefilled arguments. */
const KNOBS = new Set(["listen", "staleReads", "pollIntervalMs", "ttlMs"]);

/** Example arguments from a tool's input schema (its defaults). */
function exampleArgs(schema) {
  const out = {};
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    if (prop.default !== undefined && !KNOBS.has(name)) out[name] = prop.default;
  }
  return out;
}

function toolItem(tool) {
  const args = el("textarea", { "aria-label": `${tool.name} arguments`, spellcheck: "false" });
  args.value = JSON.stringify(exampleArgs(tool.inputSchema));
  const start = el("button", { "data-start": tool.name, onclick: () => {
    let parsed;
    try { parsed = args.value.trim() ? JSON.parse(args.value) : {}; } catch { args.style.borderColor = "var(--err)"; return; }
    args.style.borderColor = "";
    startTask(tool.name, parsed);
  } }, "Start");
  return el("li", { class: "tool" },
    el("header", {}, el("span", { class: "name" }, tool.name), start),
    el("div", { class: "desc" }, tool.description ?? ""),
    args);
}

/** A client for one task: counts its requests and answers input through the task's card. */
function taskClient(card) {
  return {
    id: base.id,
    clientCapabilities: { elicitation: { form: {}, url: {} } },
    request: (method, p, options) => { card.count(method); return base.request(method, p, options); },
    listen: base.listen && ((p, options) => { card.count("subscriptions/listen"); return base.listen(p, options); }),
    inputHandlers: {
      form: (p, ctx) => card.ask((done) => renderForm(p, ctx, done), ctx.signal),
      url: (p, ctx) => card.ask((done) => renderUrlConsent(p, ctx, done), ctx.signal),
    },
  };
}

function startTask(toolName, args) {
  return runTask(toolName, args, undefined);
}

/** Starts `toolName` as a task — or, given a journal `entry` left by an earlier page, resumes it. */
async function runTask(toolName, args, entry) {
  taskCount += 1;
  $("#task-count").textContent = `(${taskCount})`;
  const card = taskCard(toolName);
  $("#tasks").prepend(card.node);
  const client = taskClient(card);
  const timeoutMs = Number($("#timeout").value) || 60_000;
  const listen = $("#listen").checked && typeof client.listen === "function";
  card.setMode((listen ? "listening" : "polling") + (entry ? ", resumed after reload" : ""));
  const journaled = client.id ? { journal } : {};
  // The Cancel button in one step: aborting cancelSignal sends tasks/cancel, and the wait goes on to the
  // server's answer (a cancelled status, or the task's real end when the cancel loses the race).
  const cancel = new AbortController();
  try {
    let seed = entry?.taskId;
    if (entry?.status) card.setStatus(entry.status);
    if (!entry) {
      const created = await callTool(client, toolName, args, { timeoutMs, ...journaled });
      if (created.tag !== "task") return card.finish(created);
      card.setStatus(created.status);
      seed = created.status;
    }
    card.onCancel(() => cancel.abort());
    const out = await awaitTask(client, seed, { timeoutMs, listen, cancelSignal: cancel.signal, onStatus: (s) => card.setStatus(s), ...journaled });
    card.finish(out);
  } catch (e) {
    card.finish({ tag: "error", error: { message: String(e?.message ?? e), kind: "exception" } });
  }
}

function taskCard(toolName) {
  const started = performance.now();
  const state = el("span", { class: "badge working" }, "calling");
  const id = el("span", { class: "id" }, "");
  const message = el("div", { class: "message muted" }, "");
  const fill = el("div");
  const bar = el("div", { class: "bar spin" }, fill);
  const elapsed = el("span", {}, "0.0 s");
  const requests = el("span", { "data-requests": "0" }, "0 requests");
  const mode = el("span", {}, "");
  const cancel = el("button", { class: "danger", disabled: "" }, "Cancel");
  const slot = el("div");
  const outcome = el("div");
  const node = el("article", { class: "task", "data-tool": toolName, "data-state": "working" },
    el("div", { class: "top" }, el("span", { class: "tool-name" }, toolName), state, id),
    message, bar,
    el("div", { class: "meta" }, elapsed, requests, mode),
    el("div", { class: "actions" }, cancel), slot, outcome);
  let count = 0;
  const byMethod = {};
  const tick = setInterval(() => { elapsed.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`; }, 100);
  const setState = (s, label = s) => { node.dataset.state = s; state.className = `badge ${s}`; state.textContent = label.replace("_", " "); };
  return {
    node,
    count(method) {
      count += 1;
      byMethod[method] = (byMethod[method] ?? 0) + 1;
      requests.dataset.requests = String(count);
      requests.textContent = `${count} requests (${Object.entries(byMethod).map(([m, n]) => `${m} ${n}`).join(", ")})`;
    },
    setMode(m) { mode.textContent = m; },
    setStatus(s) {
      id.textContent = s.taskId;
      setState(s.status);
      message.textContent = s.statusMessage ?? "";
      const step = /(\d+)\s*\/\s*(\d+)/.exec(s.statusMessage ?? "");
      bar.classList.toggle("spin", !step && (s.status === "working" || s.status === "input_required"));
      fill.style.width = step ? `${(100 * Number(step[1])) / Number(step[2])}%` : "";
    },
    onCancel(fn) {
      cancel.disabled = false;
      cancel.onclick = async () => { cancel.disabled = true; cancel.textContent = "Cancelling…"; await fn(); };
    },
    /** Shows an input request in the card; resolves with the handler outcome (or nothing once aborted). */
    ask(render, signal) {
      return new Promise((resolve) => {
        const box = render((answer) => { box.remove(); resolve(answer); });
        slot.append(box);
        signal.addEventListener("abort", () => box.remove(), { once: true });
      });
    },
    finish(out) {
      clearInterval(tick);
      cancel.disabled = true;
      cancel.textContent = "Cancel";
      slot.replaceChildren();
      bar.classList.remove("spin");
      fill.style.width = "100%";
      const label = out.tag === "ok" ? "completed" : out.tag;
      setState(out.tag === "ok" ? "completed" : out.tag, label);
      outcome.replaceChildren(el("div", { class: `outcome ${out.tag}`, "data-outcome": out.tag }, describe(out)));
    },
  };
}

function describe(out) {
  switch (out.tag) {
    case "ok": {
      const text = resultText(out.result);
      return `${out.result.isError ? "tool error" : "result"}: ${text || JSON.stringify(out.result)}`;
    }
    case "cancelled":
      return `cancelled${out.status.statusMessage ? `: ${out.status.statusMessage}` : ""}`;
    case "input_required":
      return `input required (no handler in this demo): ${Object.values(out.status.inputRequests ?? {}).map((r) => r.method).join(", ")}`;
    case "error": {
      const e = out.error;
      const cause = e.cause ? `\ncause: ${e.cause.type}${e.cause.method ? ` (${e.cause.method})` : ""}` : "";
      return `error ${e.code ?? ""} [${e.kind}]: ${e.message}${cause}`;
    }
    default:
      return JSON.stringify(out);
  }
}
