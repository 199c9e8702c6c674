// The test tools. Each `run(ctx, args)` is a small script over the context API of runner.mjs:
//   ctx.task({statusMessage}?)  become a task (only with the tasks extension; a no-op otherwise,
//                               -32021 for task-only tools)
//   ctx.mrtr(requests | null)   a pre-task MRTR round (input_required result + requestState)
//   ctx.ask(requests, message?) task input (input_required); before a task / without the extension
//                               it falls back to an MRTR round
//   ctx.status(message)         set statusMessage
//   ctx.sleep(ms)               wait (Infinity = until cancelled)
// A script returns a CallToolResult (without resultType) or throws a JSON-RPC error object
// (→ a `failed` task, or the JSON-RPC error of tools/call when it ran without a task).
import { LISTEN_MODES, isObject, rpcError, text, textResult } from "./util.mjs";

const form = (message, properties, required) => ({
  method: "elicitation/create",
  params: { mode: "form", message, requestedSchema: { type: "object", properties, required } },
});

export const NAME_REQUEST = form("What is your name?", { name: { type: "string", title: "Name" } }, ["name"]);
export const AGE_REQUEST = form("How old are you?", { age: { type: "integer", title: "Age", minimum: 0 } }, ["age"]);
export const CONFIRM_REQUEST = form("Confirm?", { ok: { type: "boolean", title: "OK" } }, ["ok"]);
export const ROOTS_REQUEST = { method: "roots/list", params: {} };
export const RICH_FORM_REQUEST = form("Tell us about yourself", {
  name: { type: "string", title: "Name", description: "Your name", default: "Ada", minLength: 1, maxLength: 40 },
  email: { type: "string", title: "Email", format: "email" },
  score: { type: "number", title: "Score", minimum: 0, maximum: 10 },
  count: { type: "integer", title: "Count", minimum: 1, maximum: 5 },
  subscribe: { type: "boolean", title: "Subscribe", default: true },
  color: { type: "string", title: "Color", enum: ["red", "green", "blue"], default: "green" },
}, ["name", "score", "color"]);

const accepted = (r) => (r?.action === "accept" ? r.content ?? {} : undefined);

/** Arguments every task tool accepts in addition to its own. */
const TASK_ARGS = {
  pollIntervalMs: {
    type: ["integer", "array", "null"], items: { type: ["integer", "null"] },
    description: "pollIntervalMs of this task (not clamped; null = field omitted); a list [a,b,c] is used for successive tasks/get reads",
  },
  listen: { type: "string", enum: LISTEN_MODES, default: "normal", description: "how subscriptions/listen behaves for this task" },
  staleReads: { type: "integer", minimum: 0, default: 0, description: "tasks/get reads that still list an answered key" },
  ttlMs: { type: ["integer", "null"], minimum: 1, description: "ttlMs of this task (default: the server's; null = unlimited)" },
};
const MS = (def) => ({ type: "integer", minimum: 0, default: def, description: "work time in ms" });

function def(name, description, props, required, run, kind = "task") {
  const properties = kind === "sync" ? props : { ...props, ...TASK_ARGS };
  return { name, description, kind, run, inputSchema: { type: "object", properties, required } };
}

const TOOLS = [
  def("echo", "Returns its text at once; never a task.", { text: { type: "string" } }, ["text"],
    async (_ctx, a) => textResult(a.text), "sync"),

  def("slow", "A task that works for ms (statusMessage 'step i/steps'), then completes.",
    { ms: MS(300), steps: { type: "integer", minimum: 1, default: 3 } }, [],
    async (ctx, { ms = 300, steps = 3 }) => {
      await ctx.task({ statusMessage: `step 1/${steps}` });
      for (let i = 1; i <= steps; i++) {
        if (i > 1) ctx.status(`step ${i}/${steps}`);
        await ctx.sleep(ms / steps);
      }
      return textResult(`slept ${ms} ms`, { structuredContent: { ms } });
    }),

  def("ask", "A task that asks for your name (form elicitation, key 'name').", {}, [],
    async (ctx) => {
      await ctx.task();
      const { name } = await ctx.ask({ name: NAME_REQUEST });
      const v = accepted(name)?.name;
      return textResult(v !== undefined ? `hello, ${v}` : "no name");
    }),

  def("ask_twice", "A task with two input rounds: key 'name', then key 'age'.", {}, [],
    async (ctx) => {
      await ctx.task();
      const { name } = await ctx.ask({ name: NAME_REQUEST });
      const { age } = await ctx.ask({ age: AGE_REQUEST });
      return textResult(`${accepted(name)?.name ?? "someone"} is ${accepted(age)?.age ?? "unknown"}`);
    }),

  def("ask_many", "A task with one round of two asks: 'name' (form) and 'root' (roots/list).", {}, [],
    async (ctx) => {
      await ctx.task();
      const { name, root } = await ctx.ask({ name: NAME_REQUEST, root: ROOTS_REQUEST });
      const roots = Array.isArray(root?.roots) ? root.roots.map((r) => r.uri).join(", ") : "";
      return textResult(`name: ${accepted(name)?.name ?? "no name"}; roots: ${roots || "none"}`);
    }),

  def("ask_url", "A task that asks for consent through a URL-mode elicitation (key 'consent').",
    { url: { type: "string", format: "uri", default: "https://example.com/consent" } }, [],
    async (ctx, { url = "https://example.com/consent" }) => {
      await ctx.task();
      const { consent } = await ctx.ask({
        consent: { method: "elicitation/create", params: { mode: "url", message: "Please give consent on this page", url } },
      });
      return textResult(consent?.action === "accept" ? "consented" : "not consented");
    }),

  def("sample", "A task that asks for one sampling/createMessage (key 'sample') and returns the text.",
    { prompt: { type: "string", default: "Say hello" } }, [],
    async (ctx, { prompt = "Say hello" }) => {
      await ctx.task();
      const { sample } = await ctx.ask({
        sample: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: text(prompt) }], maxTokens: 100 },
        },
      });
      const blocks = [sample?.content ?? []].flat();
      return textResult(blocks.filter((b) => b?.type === "text").map((b) => b.text).join("") || "no text");
    }),

  def("form", "A task with one rich form (key 'form'); echoes the answer as JSON.", {}, [],
    async (ctx) => {
      await ctx.task();
      const { form: answer } = await ctx.ask({ form: RICH_FORM_REQUEST });
      return textResult(JSON.stringify(answer), { structuredContent: answer });
    }),

  def("fail", "A task that ends failed with error -32603 'tool crashed'.", { ms: MS(50) }, [],
    async (ctx, { ms = 50 }) => {
      await ctx.task();
      await ctx.sleep(ms);
      throw rpcError(-32603, "tool crashed", { reason: "test" });
    }),

  def("tool_error", "A task that completes with isError: true ('tool failed').", { ms: MS(50) }, [],
    async (ctx, { ms = 50 }) => {
      await ctx.task();
      await ctx.sleep(ms);
      return textResult("tool failed", { isError: true });
    }),

  def("forever", "A task that stays working until tasks/cancel.", {}, [],
    async (ctx) => {
      await ctx.task({ statusMessage: "running forever" });
      await ctx.sleep(Infinity);
    }),

  def("task_only", "Runs only as a task (-32021 without the tasks extension).", { ms: MS(50) }, [],
    async (ctx, { ms = 50 }) => {
      await ctx.task();
      await ctx.sleep(ms);
      return textResult("task only done");
    }, "task_only"),

  def("mrtr", "MRTR first (key 'confirm'), then a task that completes 'confirmed: <ok>'.", { ms: MS(50) }, [],
    async (ctx, { ms = 50 }) => {
      const { confirm } = await ctx.mrtr({ confirm: CONFIRM_REQUEST });
      await ctx.task();
      await ctx.sleep(ms);
      return textResult(`confirmed: ${accepted(confirm)?.ok === true}`);
    }),

  def("mrtr2", "Two MRTR rounds (keys 'first', 'second'), then a task.", { ms: MS(50) }, [],
    async (ctx, { ms = 50 }) => {
      const answer = { value: { type: "string", title: "Value" } };
      const { first } = await ctx.mrtr({ first: form("First value?", answer, ["value"]) });
      const { second } = await ctx.mrtr({ second: form("Second value?", answer, ["value"]) });
      await ctx.task();
      await ctx.sleep(ms);
      return textResult(`first: ${accepted(first)?.value ?? "-"}, second: ${accepted(second)?.value ?? "-"}`);
    }),

  def("mrtr_state", "MRTR with only a requestState once, then a plain result 'state ok'.", {}, [],
    async (ctx) => {
      await ctx.mrtr(null);
      return textResult("state ok");
    }, "sync"),
];

export const tools = new Map(TOOLS.map((t) => [t.name, t]));

/** tools/list entries. */
export const toolList = TOOLS.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));

const TYPE_CHECKS = {
  null: (v) => v === null,
  integer: Number.isInteger,
  number: (v) => typeof v === "number",
  string: (v) => typeof v === "string",
  boolean: (v) => typeof v === "boolean",
  array: Array.isArray,
  object: isObject,
};
const typeOk = (type, v) => [type].flat().some((t) => TYPE_CHECKS[t](v));

/** Light argument validation against the tool's inputSchema (types, enums, required). */
export function validateArgs(tool, args) {
  const { properties, required = [] } = tool.inputSchema;
  for (const key of required) {
    if (!Object.hasOwn(args, key)) throw rpcError(-32602, `${tool.name}: missing argument '${key}'`);
  }
  for (const [key, schema] of Object.entries(properties)) {
    if (!Object.hasOwn(args, key)) continue;
    const v = args[key];
    const bad = !typeOk(schema.type, v)
      || (schema.enum && !schema.enum.includes(v))
      || (Array.isArray(v) && (v.length === 0 || !v.every((x) => typeOk(schema.items.type, x))));
    if (bad) throw rpcError(-32602, `${tool.name}: invalid argument '${key}'`);
  }
}
