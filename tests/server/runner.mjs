// tools/call: runs a tool script, synchronously or as a task, with stateless MRTR rounds.
import { tools, validateArgs } from "./tools.mjs";
import {
  CANCELLED, hasTasksExt, isObject, isRpcError, needTasksExt, rpcError, signState, verifyState,
} from "./util.mjs";

class InputRequired {
  constructor(result) { this.result = result; }
}

const pick = (obj, keys) => Object.fromEntries(keys.filter((k) => Object.hasOwn(obj, k)).map((k) => [k, obj[k]]));

/**
 * Reads an MRTR retry. The signed requestState holds the tool name, how many rounds were asked,
 * the keys of the last round and the answers of the earlier ones; every key of the last round must
 * be answered in inputResponses. Anything else → -32602.
 */
function readRetry(tool, { requestState, inputResponses }) {
  if (requestState === undefined && inputResponses === undefined) return { rounds: 0, answers: {} };
  const st = verifyState(requestState);
  if (!st || st.t !== tool.name) throw rpcError(-32602, "tools/call: requestState missing or not issued for this tool");
  if (inputResponses !== undefined && !isObject(inputResponses)) throw rpcError(-32602, "tools/call: inputResponses must be an object");
  const missing = st.p.filter((k) => !Object.hasOwn(inputResponses ?? {}, k));
  if (missing.length) throw rpcError(-32602, `tools/call: missing inputResponses for ${missing.join(", ")}`);
  return { rounds: st.r, answers: { ...st.a, ...pick(inputResponses ?? {}, st.p) } };
}

/**
 * @param store the task store
 * @param closed AbortSignal of the core (close() aborts everything)
 * @returns (params, signal?) => Promise<result>
 */
export function createRunner(store, closed) {
  return function callTool(params, signal) {
    const name = params.name;
    if (typeof name !== "string") throw rpcError(-32602, "tools/call: params.name must be a string");
    const tool = tools.get(name);
    if (!tool) throw rpcError(-32602, `tools/call: unknown tool '${name}'`);
    const args = params.arguments ?? {};
    if (!isObject(args)) throw rpcError(-32602, "tools/call: arguments must be an object");
    validateArgs(tool, args);
    const retry = readRetry(tool, params);
    const ext = hasTasksExt(params);

    return new Promise((resolve, reject) => {
      // Before the task exists, work is bound to the request (client gone / core closed → stop).
      const request = new AbortController();
      const stop = () => request.abort();
      signal?.addEventListener("abort", stop, { once: true });
      closed.addEventListener("abort", stop, { once: true });
      if (signal?.aborted || closed.aborted) stop();
      let task;
      let round = 0;
      const current = () => (task ? task.abort.signal : request.signal);

      const ctx = {
        async task({ statusMessage } = {}) {
          if (task || tool.kind === "sync") return;
          if (!ext) {
            if (tool.kind === "task_only") throw needTasksExt(`tool '${name}' runs only as a task: declare the tasks extension`);
            return;
          }
          const { pollIntervalMs, listen, staleReads, ttlMs } = args;
          task = store.create({ pollIntervalMs, listen, staleReads, ttlMs, statusMessage });
          resolve(store.createResult(task));
          cleanup(); // from here on the task's own signal governs the script
        },
        async mrtr(requests) {
          const keys = Object.keys(requests ?? {});
          if (round++ < retry.rounds) return pick(retry.answers, keys);
          const result = { resultType: "input_required" };
          if (requests) result.inputRequests = requests;
          result.requestState = signState({ t: name, r: round, p: keys, a: retry.answers });
          throw new InputRequired(result);
        },
        ask(requests, message = "waiting for input") {
          return task ? store.awaitInput(task, requests, message) : ctx.mrtr(requests);
        },
        status(message) {
          if (task) store.change(task, (t) => { t.statusMessage = message; });
        },
        sleep(ms) {
          const sig = current();
          return new Promise((res, rej) => {
            if (sig.aborted) return rej(CANCELLED);
            let timer;
            const onAbort = () => { clearTimeout(timer); rej(CANCELLED); };
            sig.addEventListener("abort", onAbort, { once: true });
            if (Number.isFinite(ms)) timer = setTimeout(() => { sig.removeEventListener("abort", onAbort); res(); }, ms);
          });
        },
      };

      const cleanup = () => {
        signal?.removeEventListener("abort", stop);
        closed.removeEventListener("abort", stop);
      };
      Promise.resolve().then(() => tool.run(ctx, args)).then(
        (result) => {
          cleanup();
          if (task) store.complete(task, result);
          else resolve({ resultType: "complete", ...result });
        },
        (err) => {
          cleanup();
          if (err instanceof InputRequired) return resolve(err.result);
          if (err === CANCELLED) return task || reject(rpcError(-32603, "request cancelled"));
          const e = isRpcError(err) ? err : rpcError(-32603, String(err?.message ?? err));
          if (task) store.fail(task, e);
          else reject(e);
        },
      );
    });
  };
}
