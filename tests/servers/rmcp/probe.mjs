#!/usr/bin/env node
// Wire probe for an MCP 2026-07-28 Tasks server (built for rmcp-tasks-server).
// Usage: node probe.mjs <url> [--verbose]
// Walks every test tool's lifecycle with raw fetch; exits non-zero on any mismatch.
// Node >= 18 (global fetch), no npm packages.

const args = process.argv.slice(2);
const URL_ = args.find((a) => !a.startsWith('-'));
const VERBOSE = args.includes('--verbose') || args.includes('-v');
if (!URL_) {
  console.error('usage: node probe.mjs <url> [--verbose]');
  process.exit(2);
}

const PV = '2026-07-28';
const TASKS = 'io.modelcontextprotocol/tasks';
const capsWithTasks = { elicitation: { form: {}, url: {} }, extensions: { [TASKS]: {} } };
const capsNoTasks = { elicitation: { form: {}, url: {} } };
const meta = (caps = capsWithTasks) => ({
  'io.modelcontextprotocol/protocolVersion': PV,
  'io.modelcontextprotocol/clientInfo': { name: 'probe', version: '0' },
  'io.modelcontextprotocol/clientCapabilities': caps,
});

let passed = 0;
let failed = 0;
function check(cond, what, detail) {
  if (cond) {
    passed++;
    console.log(`ok - ${what}`);
  } else {
    failed++;
    console.log(`not ok - ${what}${detail !== undefined ? ` :: ${JSON.stringify(detail)}` : ''}`);
  }
  return cond;
}
const note = (s) => console.log(`# ${s}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let nextId = 1;

// Parse an SSE body into the JSON messages of its `data:` events (comments ignored).
function parseSse(text) {
  const msgs = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data.trim() === '') continue;
    try {
      msgs.push(JSON.parse(data));
    } catch {
      msgs.push({ unparsable: data });
    }
  }
  return msgs;
}

/**
 * POST one JSON-RPC request. Returns {status, ctype, framing, msg, raw}.
 * opts.name: Mcp-Name value (undefined = derive from params; null = omit header)
 * opts.caps: clientCapabilities for _meta; opts.headers: extra/override headers.
 */
async function rpc(method, params = {}, opts = {}) {
  const id = nextId++;
  const body = { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(opts.caps) } };
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PV,
    'Mcp-Method': method,
  };
  let name = opts.name;
  if (name === undefined) {
    if (method === 'tools/call') name = params.name;
    else if (method.startsWith('tasks/')) name = params.taskId;
  }
  if (name !== undefined && name !== null) headers['Mcp-Name'] = name;
  Object.assign(headers, opts.headers || {});
  const res = await fetch(URL_, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15000),
  });
  const ctype = res.headers.get('content-type') || '';
  const raw = await res.text();
  let framing;
  let msg;
  if (ctype.startsWith('text/event-stream')) {
    framing = 'sse';
    const msgs = parseSse(raw);
    msg = msgs.find((m) => m && m.id === id) ?? msgs.find((m) => m && (m.result || m.error));
    if (msgs.length !== 1) note(`${method}: ${msgs.length} SSE data events`);
  } else {
    framing = ctype.startsWith('application/json') ? 'json' : ctype || 'none';
    try {
      msg = JSON.parse(raw);
    } catch {
      msg = undefined;
    }
  }
  if (VERBOSE) {
    console.log(`>>> ${method} ${JSON.stringify(body.params, (k, v) => (k === '_meta' ? '…' : v))}`);
    console.log(`<<< HTTP ${res.status} ${ctype}\n${raw.trimEnd()}\n`);
  }
  return { status: res.status, ctype, framing, msg, raw, id };
}

const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const keys = (o) => (isObj(o) ? Object.keys(o).sort() : []);
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

function checkCreateTask(r, label) {
  const res = r.msg?.result;
  check(r.status === 200 && r.framing === 'sse', `${label}: tools/call HTTP 200 SSE`, [r.status, r.ctype]);
  check(res?.resultType === 'task', `${label}: resultType "task"`, res);
  check(typeof res?.taskId === 'string' && res.taskId.length > 0, `${label}: taskId string`, res?.taskId);
  check(res?.status === 'working', `${label}: seed status working`, res?.status);
  check(typeof res?.createdAt === 'string' && typeof res?.lastUpdatedAt === 'string', `${label}: createdAt/lastUpdatedAt`);
  check(res && 'ttlMs' in res && Number.isInteger(res.ttlMs), `${label}: ttlMs present`, res?.ttlMs);
  check(Number.isInteger(res?.pollIntervalMs), `${label}: pollIntervalMs integer`, res?.pollIntervalMs);
  check(
    res && !('inputRequests' in res) && !('result' in res) && !('error' in res) && !('requestState' in res) && !('task' in res),
    `${label}: CreateTaskResult flat, no payload fields`,
    keys(res),
  );
  return res;
}

async function getTask(taskId) {
  return rpc('tasks/get', { taskId });
}

// Poll tasks/get until pred(result) or terminal; returns the last result.
async function pollUntil(task, pred, label, maxMs = 10000) {
  const start = Date.now();
  const seen = [];
  let interval = Math.max(20, task.pollIntervalMs ?? 100);
  for (;;) {
    const r = await getTask(task.taskId);
    const res = r.msg?.result;
    if (!res) {
      check(false, `${label}: tasks/get answered a result`, r.msg);
      return { res: undefined, seen };
    }
    if (seen[seen.length - 1] !== res.status) seen.push(res.status);
    if (res.resultType !== 'complete') check(false, `${label}: tasks/get resultType "complete"`, res.resultType);
    if (pred(res) || TERMINAL.has(res.status)) return { res, seen, r };
    if (Date.now() - start > maxMs) {
      check(false, `${label}: reached expected state within ${maxMs} ms`, res);
      return { res, seen, r };
    }
    if (Number.isInteger(res.pollIntervalMs)) interval = Math.max(20, res.pollIntervalMs);
    await sleep(interval);
  }
}

const text0 = (result) => result?.content?.[0]?.text;

async function main() {
  note(`probing ${URL_}`);

  // --- CORS preflight -------------------------------------------------------
  {
    const wanted = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'authorization'];
    const res = await fetch(URL_, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': wanted.join(','),
      },
      signal: AbortSignal.timeout(5000),
    });
    const ah = (res.headers.get('access-control-allow-headers') || '').toLowerCase();
    const allowed = ah.split(',').map((s) => s.trim());
    note(`preflight: HTTP ${res.status}; allow-origin=${res.headers.get('access-control-allow-origin')}; allow-methods=${res.headers.get('access-control-allow-methods')}; allow-headers=${ah}`);
    check(res.status === 200 || res.status === 204, 'preflight: 200/204', res.status);
    check(res.headers.get('access-control-allow-origin') !== null, 'preflight: Access-Control-Allow-Origin present');
    check(/post|\*/i.test(res.headers.get('access-control-allow-methods') || ''), 'preflight: POST allowed');
    check(wanted.every((h) => allowed.includes(h)), 'preflight: all requested headers allowed explicitly', ah);
    // A simple CORS POST exposes headers.
    const r = await rpc('server/discover', {}, { headers: { Origin: 'http://localhost:5173' } });
    check(r.status === 200, 'CORS POST: 200');
  }

  // --- server/discover ------------------------------------------------------
  {
    const r = await rpc('server/discover');
    const res = r.msg?.result;
    note(`server/discover: HTTP ${r.status} ${r.framing}`);
    check(r.status === 200, 'discover: HTTP 200', r.status);
    check(res?.resultType === 'complete', 'discover: resultType complete', res);
    check(Array.isArray(res?.supportedVersions) && res.supportedVersions.includes(PV), 'discover: supportedVersions has 2026-07-28', res?.supportedVersions);
    check(isObj(res?.capabilities?.extensions?.[TASKS]), 'discover: capabilities.extensions has tasks', res?.capabilities);
    check(Number.isInteger(res?.ttlMs) && typeof res?.cacheScope === 'string', 'discover: ttlMs + cacheScope');
  }

  // --- tools/list -------------------------------------------------------------
  {
    const r = await rpc('tools/list');
    const names = (r.msg?.result?.tools || []).map((t) => t.name).sort();
    const expected = ['ask', 'ask_two', 'compose', 'echo', 'fail', 'forever', 'slow', 'task_only', 'tool_error'];
    check(JSON.stringify(names) === JSON.stringify(expected), 'tools/list: the 9 test tools', names);
  }

  // --- echo (synchronous) -----------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'echo', arguments: { text: 'hi there' } });
    const res = r.msg?.result;
    note(`echo: HTTP ${r.status} ${r.framing}`);
    check(res?.resultType === 'complete', 'echo: resultType complete', res);
    check(text0(res) === 'hi there' && res.content[0].type === 'text', 'echo: content text', res?.content);
  }

  // --- slow ---------------------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'slow', arguments: { ms: 300 } });
    const task = checkCreateTask(r, 'slow');
    if (task) {
      const first = await getTask(task.taskId);
      check(first.msg?.result?.status === 'working', 'slow: immediate tasks/get is working', first.msg?.result?.status);
      check(first.status === 200 && first.framing === 'sse', 'slow: tasks/get HTTP 200 SSE', [first.status, first.ctype]);
      const { res, seen } = await pollUntil(task, () => false, 'slow');
      note(`slow: statuses seen ${seen.join(' -> ')}`);
      check(res?.status === 'completed', 'slow: completed', res?.status);
      check(text0(res?.result) === 'slept 300 ms', 'slow: result text', res?.result);
      check(res && !('error' in res) && !('inputRequests' in res), 'slow: completed carries only result');
      // Cancel of a finished task: acknowledged.
      const c = await rpc('tasks/cancel', { taskId: task.taskId });
      note(`cancel on completed: HTTP ${c.status} ${JSON.stringify(c.msg?.result ?? c.msg?.error)}`);
      check(c.msg?.result?.resultType === 'complete', 'slow: tasks/cancel on completed task is acked', c.msg);
      const after = await getTask(task.taskId);
      check(after.msg?.result?.status === 'completed', 'slow: stays completed after late cancel', after.msg?.result?.status);
    }
  }

  // --- ask (accept / decline / cancel) ---------------------------------------
  for (const [action, expectText] of [
    ['accept', 'hello, Ada'],
    ['decline', 'no name'],
    ['cancel', 'no name'],
  ]) {
    const label = `ask/${action}`;
    const r = await rpc('tools/call', { name: 'ask' });
    const task = checkCreateTask(r, label);
    if (!task) continue;
    const { res } = await pollUntil(task, (t) => t.status === 'input_required', label);
    check(res?.status === 'input_required', `${label}: input_required`, res?.status);
    const irq = res?.inputRequests;
    check(JSON.stringify(keys(irq)) === JSON.stringify(['name']), `${label}: inputRequests keys == ["name"]`, keys(irq));
    const req = irq?.name;
    check(req?.method === 'elicitation/create', `${label}: method elicitation/create`, req);
    check(req?.params?.message === 'What is your name?', `${label}: message`, req?.params);
    check(
      req?.params?.requestedSchema?.type === 'object' &&
        req.params.requestedSchema.properties?.name?.type === 'string' &&
        JSON.stringify(req.params.requestedSchema.required) === '["name"]',
      `${label}: requestedSchema`,
      req?.params?.requestedSchema,
    );
    check(!('jsonrpc' in (req || {})) && !('id' in (req || {})), `${label}: input request has no jsonrpc/id`);
    const answer = action === 'accept' ? { action, content: { name: 'Ada' } } : { action };
    const u = await rpc('tasks/update', { taskId: task.taskId, inputResponses: { name: answer } });
    check(u.status === 200 && JSON.stringify(u.msg?.result) === '{"resultType":"complete"}', `${label}: tasks/update ack is exactly {resultType:"complete"}`, u.msg);
    const fin = await pollUntil(task, () => false, label);
    check(fin.res?.status === 'completed', `${label}: completed`, fin.res?.status);
    check(text0(fin.res?.result) === expectText, `${label}: result text "${expectText}"`, fin.res?.result);
    if (action === 'accept') {
      // Stale key after the answer: acked and ignored.
      const u2 = await rpc('tasks/update', { taskId: task.taskId, inputResponses: { name: answer, bogus: { action: 'cancel' } } });
      check(u2.msg?.result?.resultType === 'complete', 'ask: tasks/update with stale/unknown keys is acked', u2.msg);
    }
  }

  // --- ask_two: two form requests in one round, answered one at a time -----------
  {
    const label = 'ask_two';
    const r = await rpc('tools/call', { name: 'ask_two' });
    const task = checkCreateTask(r, label);
    if (task) {
      const { res } = await pollUntil(task, (t) => t.status === 'input_required' && keys(t.inputRequests).length === 2, label);
      check(JSON.stringify(keys(res?.inputRequests)) === '["first","last"]', `${label}: inputRequests keys == ["first","last"]`, res?.inputRequests);
      check(res?.inputRequests?.first?.params?.requestedSchema?.properties?.first?.type === 'string' &&
        res?.inputRequests?.last?.params?.requestedSchema?.properties?.last?.type === 'string', `${label}: one string field per form`, res?.inputRequests);
      const u1 = await rpc('tasks/update', { taskId: task.taskId, inputResponses: { first: { action: 'accept', content: { first: 'Ada' } } } });
      check(u1.msg?.result?.resultType === 'complete', `${label}: partial update acked`, u1.msg);
      const mid = (await rpc('tasks/get', { taskId: task.taskId })).msg?.result;
      check(mid?.status === 'input_required' && JSON.stringify(keys(mid?.inputRequests)) === '["last"]', `${label}: after 1 of 2 answers still input_required with ["last"]`, mid);
      await rpc('tasks/update', { taskId: task.taskId, inputResponses: { last: { action: 'accept', content: { last: 'Lovelace' } } } });
      const fin = await pollUntil(task, () => false, label);
      check(fin.res?.status === 'completed' && text0(fin.res?.result) === 'hello, Ada Lovelace', `${label}: completed "hello, Ada Lovelace"`, fin.res);
    }
  }

  // --- ask, cancelled while input_required -------------------------------------
  {
    const r = await rpc('tools/call', { name: 'ask' });
    const task = checkCreateTask(r, 'ask/tasks-cancel');
    if (task) {
      await pollUntil(task, (t) => t.status === 'input_required', 'ask/tasks-cancel');
      const c = await rpc('tasks/cancel', { taskId: task.taskId });
      check(c.msg?.result?.resultType === 'complete', 'ask/tasks-cancel: ack');
      const fin = await pollUntil(task, () => false, 'ask/tasks-cancel');
      check(fin.res?.status === 'cancelled', 'ask/tasks-cancel: cancelled', fin.res?.status);
    }
  }

  // --- fail ------------------------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'fail' });
    const task = checkCreateTask(r, 'fail');
    if (task) {
      const { res } = await pollUntil(task, () => false, 'fail');
      check(res?.status === 'failed', 'fail: failed', res?.status);
      check(res?.error?.code === -32603 && typeof res?.error?.message === 'string', 'fail: error {code:-32603, message}', res?.error);
      check(res && !('result' in res), 'fail: no result');
      note(`fail: error=${JSON.stringify(res?.error)} statusMessage=${JSON.stringify(res?.statusMessage)}`);
    }
  }

  // --- tool_error ----------------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'tool_error' });
    const task = checkCreateTask(r, 'tool_error');
    if (task) {
      const { res } = await pollUntil(task, () => false, 'tool_error');
      check(res?.status === 'completed', 'tool_error: completed (not failed)', res?.status);
      check(res?.result?.isError === true && text0(res?.result) === 'tool failed', 'tool_error: result isError true, "tool failed"', res?.result);
    }
  }

  // --- forever + tasks/cancel -------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'forever' });
    const task = checkCreateTask(r, 'forever');
    if (task) {
      await sleep(Math.max(50, 2 * task.pollIntervalMs));
      const g = await getTask(task.taskId);
      check(g.msg?.result?.status === 'working', 'forever: still working', g.msg?.result?.status);
      const c = await rpc('tasks/cancel', { taskId: task.taskId });
      note(`tasks/cancel: HTTP ${c.status} ${c.framing} ${JSON.stringify(c.msg)}`);
      check(c.status === 200 && JSON.stringify(c.msg?.result) === '{"resultType":"complete"}', 'forever: tasks/cancel ack is exactly {resultType:"complete"}', c.msg);
      const { res } = await pollUntil(task, () => false, 'forever');
      check(res?.status === 'cancelled', 'forever: cancelled', res?.status);
      check(res && !('result' in res) && !('error' in res), 'forever: cancelled carries no payload', keys(res));
    }
  }

  // --- errors ----------------------------------------------------------------------
  {
    const r = await rpc('tasks/get', { taskId: 'no-such-task' });
    note(`tasks/get unknown: HTTP ${r.status} ${r.framing} ${JSON.stringify(r.msg)}`);
    check(r.msg?.error?.code === -32602, 'tasks/get unknown id: -32602', r.msg);
    const u = await rpc('tasks/update', { taskId: 'no-such-task', inputResponses: {} });
    check(u.msg?.error?.code === -32602, 'tasks/update unknown id: -32602', u.msg);
    const c = await rpc('tasks/cancel', { taskId: 'no-such-task' });
    check(c.msg?.error?.code === -32602, 'tasks/cancel unknown id: -32602', c.msg);
  }
  {
    const r = await rpc('tasks/get', { taskId: 'whatever' }, { name: null });
    note(`tasks/get without Mcp-Name: HTTP ${r.status} ${r.framing} ${JSON.stringify(r.msg)}`);
    check(r.msg?.error?.code === -32020, 'tasks/get without Mcp-Name: -32020', r.msg);
    check(r.status === 400, 'tasks/get without Mcp-Name: HTTP 400', r.status);
    const m = await rpc('tasks/get', { taskId: 'whatever' }, { name: 'other' });
    note(`tasks/get mismatched Mcp-Name: HTTP ${m.status} ${JSON.stringify(m.msg)}`);
    check(m.msg?.error?.code === -32020, 'tasks/get mismatched Mcp-Name: -32020', m.msg);
  }
  {
    const r = await rpc('tasks/get', { taskId: 'whatever' }, { caps: capsNoTasks });
    note(`tasks/get without tasks extension: HTTP ${r.status} ${r.framing} ${JSON.stringify(r.msg)}`);
    check(r.msg?.error?.code === -32021, 'tasks/get without tasks extension: -32021', r.msg);
  }

  // --- task_only ---------------------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'task_only' }, { caps: capsNoTasks });
    note(`task_only w/o extension: HTTP ${r.status} ${r.framing} ${JSON.stringify(r.msg)}`);
    check(r.msg?.error?.code === -32021, 'task_only w/o extension: -32021', r.msg);
    check(isObj(r.msg?.error?.data?.requiredCapabilities?.extensions?.[TASKS]), 'task_only w/o extension: data.requiredCapabilities.extensions[tasks]', r.msg?.error?.data);
    const r2 = await rpc('tools/call', { name: 'task_only' });
    const task = checkCreateTask(r2, 'task_only');
    if (task) {
      const { res } = await pollUntil(task, () => false, 'task_only');
      check(res?.status === 'completed' && text0(res?.result) === 'task only done', 'task_only: completed "task only done"', res);
    }
  }

  // --- no extension: plain results ----------------------------------------------------------
  {
    const r = await rpc('tools/call', { name: 'slow', arguments: { ms: 50 } }, { caps: capsNoTasks });
    check(r.msg?.result?.resultType === 'complete' && text0(r.msg?.result) === 'slept 50 ms', 'slow w/o extension: synchronous CallToolResult', r.msg);
  }

  // --- compose: MRTR round then task ---------------------------------------------------------
  {
    const r1 = await rpc('tools/call', { name: 'compose' });
    const ir = r1.msg?.result;
    note(`compose round 1: HTTP ${r1.status} ${r1.framing} ${JSON.stringify(ir)}`);
    check(r1.status === 200, 'compose: round 1 HTTP 200', r1.status);
    check(ir?.resultType === 'input_required', 'compose: resultType input_required', ir);
    check(JSON.stringify(keys(ir?.inputRequests)) === '["confirm"]', 'compose: inputRequests keys == ["confirm"]', keys(ir?.inputRequests));
    const req = ir?.inputRequests?.confirm;
    check(req?.method === 'elicitation/create' && req?.params?.requestedSchema?.properties?.ok?.type === 'boolean', 'compose: confirm is an elicitation form with ok:boolean', req);
    check(typeof ir?.requestState === 'string', 'compose: requestState string', ir?.requestState);
    const retry = { name: 'compose', inputResponses: { confirm: { action: 'accept', content: { ok: true } } } };
    if (typeof ir?.requestState === 'string') retry.requestState = ir.requestState;
    const r2 = await rpc('tools/call', retry);
    const task = checkCreateTask(r2, 'compose retry');
    if (task) {
      const { res } = await pollUntil(task, () => false, 'compose');
      check(res?.status === 'completed' && text0(res?.result) === 'confirmed: true', 'compose: completed "confirmed: true"', res);
    }
  }

  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

main().catch((e) => {
  console.error('probe crashed:', e);
  console.log(`${passed} passed, ${failed + 1} failed`);
  process.exit(1);
});
