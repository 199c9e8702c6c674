// The interop server's tools, written once as "jobs" and registered either as MCP 2025-11-25 task tools
// (server.experimental.tasks.registerToolTask: the job runs in the background and ends the task through
// the request's own extra.taskStore) or, for a Tasks-unaware server, as plain tools (the job runs inside
// the tools/call request). Everything on the wire is the SDK's own doing.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** The form `ask` sends (one required string field). */
export const ASK_FORM = {
  mode: "form",
  message: "What is your name?",
  requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
};

/** How long `required_task`, `fail_result` and `fail_status` take before they end. */
export const SHORT_MS = 200;

const text = (t, isError) => ({ content: [{ type: "text", text: t }], ...(isError ? { isError: true } : {}) });

// A job returns one of these endings; the task wrapper stores it, the plain wrapper returns it.
const completed = (result) => ({ kind: "completed", result });
const failedWithResult = (result) => ({ kind: "failed-result", result });
const failedByStatus = (statusMessage) => ({ kind: "failed-status", statusMessage });

/**
 * The tool table: name → {description, taskSupport, inputSchema?, job(args, ctx) → ending}.
 * `ctx.request(req, schema)` sends a server→client request (task: queued for the task's tasks/result
 * stream; plain: on the tools/call stream), `ctx.progress(params, via)` a notifications/progress,
 * `ctx.untilStopped()` resolves when the task is no longer running (cancelled, deleted) or the plain
 * request is aborted.
 */
export const TOOLS = {
  slow: {
    description: "Completes after `ms` milliseconds with the text `slept <ms> ms`.",
    taskSupport: "optional",
    inputSchema: { ms: z.number().int().min(0).max(600_000).default(300) },
    job: async ({ ms }) => {
      await sleep(ms);
      return completed(text(`slept ${ms} ms`));
    },
  },
  ask: {
    description: "Asks one elicitation/create (form: name) mid-task; completes with the action and content it got.",
    taskSupport: "optional",
    job: async (_args, ctx) => {
      const answer = await ctx.request({ method: "elicitation/create", params: ASK_FORM }, ElicitResultSchema);
      return completed(text(`ask: ${answer.action} ${JSON.stringify(answer.content ?? null)}`));
    },
  },
  ask_url: {
    description: "Asks one elicitation/create in url mode mid-task; completes with the action it got.",
    taskSupport: "optional",
    job: async (_args, ctx) => {
      const params = {
        mode: "url",
        message: "Open the page to approve.",
        url: "https://example.invalid/approve",
        elicitationId: randomUUID(),
      };
      const answer = await ctx.request({ method: "elicitation/create", params }, ElicitResultSchema);
      return completed(text(`ask_url: ${answer.action}`));
    },
  },
  sample: {
    description: "Asks one sampling/createMessage mid-task; completes with the model and text it got.",
    taskSupport: "optional",
    job: async (_args, ctx) => {
      const params = { messages: [{ role: "user", content: { type: "text", text: "Say hello." } }], maxTokens: 50 };
      const answer = await ctx.request({ method: "sampling/createMessage", params }, CreateMessageResultSchema);
      const said = answer.content?.type === "text" ? answer.content.text : JSON.stringify(answer.content);
      return completed(text(`sample: ${answer.model} ${said}`));
    },
  },
  roots: {
    description: "Asks one roots/list mid-task; completes with the root URIs it got.",
    taskSupport: "optional",
    job: async (_args, ctx) => {
      const answer = await ctx.request({ method: "roots/list" }, ListRootsResultSchema);
      return completed(text(`roots: ${JSON.stringify(answer.roots.map((r) => r.uri))}`));
    },
  },
  fail_result: {
    description: "Ends `failed` with a stored CallToolResult (isError: true).",
    taskSupport: "optional",
    job: async () => {
      await sleep(SHORT_MS);
      return failedWithResult(text("fail_result: deliberate failure", true));
    },
  },
  fail_status: {
    description: "Ends `failed` by status only (statusMessage, no stored result).",
    taskSupport: "optional",
    job: async () => {
      await sleep(SHORT_MS);
      return failedByStatus("fail_status: deliberate failure");
    },
  },
  forever: {
    description: "Stays working until tasks/cancel (a plain call: until the request is cancelled).",
    taskSupport: "optional",
    job: async (_args, ctx) => {
      await ctx.untilStopped();
      return completed(text("forever: stopped"));
    },
  },
  required_task: {
    description: "Runs only as a task; completes after a short time.",
    taskSupport: "required",
    job: async () => {
      await sleep(SHORT_MS);
      return completed(text("required_task: done"));
    },
  },
  tool_error: {
    description: "Completes (status completed) with a CallToolResult that has isError: true.",
    taskSupport: "optional",
    job: async () => completed(text("tool_error: deliberate tool error", true)),
  },
  progress: {
    description:
      "Sends `steps` notifications/progress for the request's progressToken, 100 ms apart, then completes " +
      "with what each send did. `via`: request = extra.sendNotification (the handler's own route), task = " +
      "queued for the task's tasks/result stream (relatedTask), session = the session's GET stream.",
    taskSupport: "optional",
    inputSchema: {
      steps: z.number().int().min(1).max(100).default(3),
      via: z.enum(["request", "task", "session"]).default("request"),
    },
    job: async ({ steps, via }, ctx) => {
      const outcomes = [];
      for (let i = 1; i <= steps; i++) {
        await sleep(100);
        try {
          const sent = await ctx.progress({ progress: i, total: steps, message: `step ${i} of ${steps}` }, via);
          outcomes.push(sent ? "sent" : "no progressToken");
        } catch (e) {
          outcomes.push(`threw: ${e.message}`);
        }
      }
      return completed(text(`progress via ${via}: ${outcomes.join("; ")}`));
    },
  },
};

/** The plain tool every server has (taskSupport forbidden: registered with registerTool). */
const ECHO = {
  description: "Answers at once with its text (a plain tool).",
  inputSchema: { text: z.string().default("") },
};

function trace(opts, line) {
  if (opts.trace) process.stderr.write(`[sdk-server] ${line}\n`);
}

/** The `ctx` of a job running inside a task. */
function taskContext(server, extra, taskId, opts) {
  const store = extra.taskStore;
  return {
    async request(req, schema) {
      // The SDK marks the task input_required itself (and sends notifications/tasks/status); the
      // request is queued for the task and goes out only on an open tasks/result stream.
      const answer = await extra.sendRequest(req, schema, { relatedTask: { taskId } });
      // The SDK leaves the task input_required after the answer: the tool puts it back to working.
      await store.updateTaskStatus(taskId, "working");
      return answer;
    },
    async progress(params, via) {
      const progressToken = extra._meta?.progressToken;
      if (progressToken === undefined) return false;
      const notification = { method: "notifications/progress", params: { progressToken, ...params } };
      if (via === "request") await extra.sendNotification(notification);
      else if (via === "task") await server.server.notification(notification, { relatedTask: { taskId } });
      else await server.server.notification(notification);
      return true;
    },
    async untilStopped() {
      for (;;) {
        await sleep(opts.pollMs);
        const task = await opts.taskStore.getTask(taskId, extra.sessionId);
        if (!task || task.status === "cancelled" || task.status === "failed" || task.status === "completed") return;
      }
    },
  };
}

/** The `ctx` of a job running inside a plain tools/call. */
function plainContext(extra) {
  return {
    request: (req, schema) => extra.sendRequest(req, schema),
    async progress(params, via) {
      const progressToken = extra._meta?.progressToken;
      if (progressToken === undefined) return false;
      if (via !== "request") throw new Error(`via ${via} needs a task`);
      await extra.sendNotification({ method: "notifications/progress", params: { progressToken, ...params } });
      return true;
    },
    untilStopped: () =>
      new Promise((resolve) => {
        if (extra.signal.aborted) resolve();
        else extra.signal.addEventListener("abort", () => resolve(), { once: true });
      }),
  };
}

/** Ends a task with a job's ending (or its exception) through the request's own task store. */
async function endTask(store, taskId, run, opts, name) {
  let ending;
  try {
    ending = await run();
  } catch (e) {
    // An input request that failed (timed out, answered with an error, the task cancelled).
    ending = failedWithResult(text(`${name}: ${e.message}`, true));
  }
  try {
    if (ending.kind === "completed") await store.storeTaskResult(taskId, "completed", ending.result);
    else if (ending.kind === "failed-result") await store.storeTaskResult(taskId, "failed", ending.result);
    else await store.updateTaskStatus(taskId, "failed", ending.statusMessage);
    trace(opts, `task ${taskId} (${name}) ended ${ending.kind}`);
  } catch (e) {
    // Already terminal (tasks/cancel) or deleted (ttl): the SDK refuses the update.
    trace(opts, `task ${taskId} (${name}) not ended (${ending.kind}): ${e.message}`);
  }
}

/** A plain tool's answer for a job's ending. */
function plainResult(ending) {
  return ending.kind === "failed-status" ? text(ending.statusMessage, true) : ending.result;
}

/** Calls `fn(args, extra)` with the SDK's two handler shapes (with or without an input schema). */
function handlerShape(hasSchema, fn) {
  return hasSchema ? (args, extra) => fn(args, extra) : (extra) => fn({}, extra);
}

/**
 * Registers every tool on `server` (an McpServer). opts: {tasks: boolean, pollMs, ttlDefault, taskStore,
 * trace}. With tasks, the TOOLS are task tools; without, plain tools (a Tasks-unaware server).
 */
export function registerTools(server, opts) {
  for (const [name, tool] of Object.entries(TOOLS)) {
    const hasSchema = !!tool.inputSchema;
    const config = { description: tool.description, ...(hasSchema ? { inputSchema: tool.inputSchema } : {}) };
    if (opts.tasks) {
      server.experimental.tasks.registerToolTask(name, { ...config, execution: { taskSupport: tool.taskSupport } }, {
        createTask: handlerShape(hasSchema, async (args, extra) => {
          const ttl = extra.taskRequestedTtl ?? opts.ttlDefault;
          const task = await extra.taskStore.createTask({ ttl, pollInterval: opts.pollMs });
          trace(opts, `task ${task.taskId} (${name}) created, ttl ${task.ttl}`);
          const ctx = taskContext(server, extra, task.taskId, opts);
          void endTask(extra.taskStore, task.taskId, () => tool.job(args, ctx), opts, name);
          return { task };
        }),
        getTask: handlerShape(hasSchema, (_args, extra) => extra.taskStore.getTask(extra.taskId)),
        getTaskResult: handlerShape(hasSchema, (_args, extra) => extra.taskStore.getTaskResult(extra.taskId)),
      });
    } else {
      server.registerTool(name, config, handlerShape(hasSchema, async (args, extra) => {
        trace(opts, `plain ${name} called`);
        return plainResult(await tool.job(args, plainContext(extra)));
      }));
    }
  }
  server.registerTool("echo", ECHO, async ({ text: t }) => {
    trace(opts, "echo ran");
    return text(t);
  });
}
