"""Interop test server: FastMCP 4.1.4 + fastmcp-tasks 4.1.4 (io.modelcontextprotocol/tasks).

Usage: python server.py (--port <N> | --stdio) [--poll-ms <ms>]

--port: serves MCP 2026-07-28 over Streamable HTTP at http://127.0.0.1:<port>/mcp
with an in-process task backend (memory://). Prints exactly one line
``READY http://127.0.0.1:<port>/mcp`` on stdout once uvicorn accepts connections.
--stdio: serves the same tools over stdio (newline-delimited JSON-RPC on
stdin/stdout; nothing else is written to stdout, logs go to stderr).
Exits 0 on SIGTERM/SIGINT (and, with --stdio, on stdin EOF). See README.md for
the tools and the observed wire.
"""

from __future__ import annotations

import signal
import sys

# Until the server is built (the imports below take ~1-2 s), SIGTERM/SIGINT
# simply exit 0.
for _sig in (signal.SIGTERM, signal.SIGINT):
    signal.signal(_sig, lambda *_: sys.exit(0))

import argparse
import asyncio
import os
import socket
import threading
from datetime import timedelta

import mcp_types
import uvicorn
from fastmcp import Context, FastMCP
from fastmcp.exceptions import ToolError
from fastmcp.utilities.tasks import TaskConfig
from fastmcp_tasks import TasksExtension
from mcp.shared.exceptions import MCPError
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware

SHUTDOWN_GRACE_S = 2.0

ASK_MESSAGE = "What is your name?"
ASK_SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}},
    "required": ["name"],
}


ASK_TWO = (("first", "What is your first name?"), ("last", "What is your last name?"))


def _one_field(name: str) -> dict:
    return {"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}


def _field(answer: object, name: str) -> str:
    """One field of an accepted ElicitResult, or "?" (declined, cancelled, missing)."""
    content = getattr(answer, "content", None) or {}
    value = content.get(name)
    if getattr(answer, "action", None) == "accept" and isinstance(value, str):
        return value
    return "?"


def build_server(poll_ms: int) -> FastMCP:
    mcp = FastMCP("mcp-tasks-wasm-fastmcp-interop")
    # In-process Docket backend and worker: no Redis needed.
    mcp.add_extension(TasksExtension(url="memory://"))

    poll = timedelta(milliseconds=poll_ms)
    # "optional": runs as a task whenever the request declares the extension.
    task = TaskConfig(mode="optional", poll_interval=poll)
    # "required": -32021 without the extension, a task with it.
    task_required = TaskConfig(mode="required", poll_interval=poll)

    @mcp.tool(task=False)
    async def echo(text: str) -> str:
        """Synchronous echo; never a task."""
        return text

    @mcp.tool(task=task)
    async def slow(ms: int = 300) -> str:
        """Completes after `ms` milliseconds."""
        await asyncio.sleep(ms / 1000)
        return f"slept {ms} ms"

    @mcp.tool(task=task)
    async def ask(ctx: Context):
        """Asks for a name with one form elicitation, then greets."""
        # Guard pattern (the only way to get input inside a fastmcp task): the
        # first leg returns an InputRequiredResult; tasks/update re-runs the tool
        # with the answers on ctx.input_responses, keyed by our own key "name"
        # (fastmcp surfaces an opaque "<taskId>:<hex>" key on the wire).
        responses = ctx.input_responses
        if not responses or "name" not in responses:
            return mcp_types.InputRequiredResult(
                input_requests={
                    "name": mcp_types.ElicitRequest(
                        params=mcp_types.ElicitRequestFormParams(
                            message=ASK_MESSAGE, requested_schema=ASK_SCHEMA
                        )
                    )
                }
            )
        answer = responses["name"]
        content = getattr(answer, "content", None) or {}
        if getattr(answer, "action", None) == "accept" and isinstance(
            content.get("name"), str
        ):
            return f"hello, {content['name']}"
        return "no name"

    @mcp.tool(task=task)
    async def ask_two(ctx: Context):
        """Asks two questions (two form elicitations) in one round, then greets."""
        # Same guard pattern as `ask`, with two requests in one round: fastmcp
        # keeps the task input_required until both are answered (answers may
        # come in one tasks/update or in several) and re-runs the tool once.
        responses = ctx.input_responses or {}
        if "first" not in responses or "last" not in responses:
            return mcp_types.InputRequiredResult(
                input_requests={
                    key: mcp_types.ElicitRequest(
                        params=mcp_types.ElicitRequestFormParams(
                            message=message, requested_schema=_one_field(key)
                        )
                    )
                    for key, message in ASK_TWO
                }
            )
        return f"hello, {_field(responses['first'], 'first')} {_field(responses['last'], 'last')}"

    @mcp.tool(task=task)
    async def fail() -> str:
        """Ends `failed` with a JSON-RPC error -32603."""
        # Only an MCPError escapes fastmcp's task wrapper as a failed execution;
        # any other exception becomes a completed isError result.
        raise MCPError(code=-32603, message="deliberate failure")

    @mcp.tool(task=task)
    async def tool_error() -> str:
        """Completes with isError: true."""
        raise ToolError("tool failed")

    @mcp.tool(task=task)
    async def forever() -> str:
        """Stays working until tasks/cancel."""
        while True:
            await asyncio.sleep(3600)

    @mcp.tool(task=task_required)
    async def task_only() -> str:
        """Runs only as a task."""
        return "task only done"

    return mcp


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", type=int, help="HTTP on 127.0.0.1:<port>; 0 = pick a free port")
    where.add_argument("--stdio", action="store_true", help="serve over stdin/stdout")
    parser.add_argument("--poll-ms", type=int, default=100, help="pollIntervalMs")
    args = parser.parse_args()

    if args.stdio:
        return run_stdio(args.poll_ms)

    # Bind ourselves so --port 0 yields the real port before uvicorn starts.
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", args.port))
    port = sock.getsockname()[1]

    mcp = build_server(args.poll_ms)
    app = mcp.http_app(
        path="/mcp",
        transport="http",
        # 2026-07-28 is sessionless; stateless mode also makes GET/DELETE 405
        # instead of the legacy "Missing session ID" 400.
        stateless_http=True,
        middleware=[
            Middleware(
                CORSMiddleware,
                allow_origins=["*"],
                allow_methods=["*"],
                allow_headers=["*"],
                expose_headers=[
                    "*",
                    "Content-Type",
                    "Mcp-Session-Id",
                    "MCP-Protocol-Version",
                    "Mcp-Method",
                    "Mcp-Name",
                    "WWW-Authenticate",
                ],
                max_age=600,
            )
        ],
    )
    config = uvicorn.Config(
        app,
        lifespan="on",
        log_level=os.environ.get("FASTMCP_SERVER_LOG_LEVEL", "warning"),
        timeout_graceful_shutdown=1,
        ws="none",
    )
    server = uvicorn.Server(config)

    # While uvicorn serves, it handles SIGTERM/SIGINT itself, shuts down,
    # restores the previous handlers and re-raises the signal. Our handler (the
    # "previous" one) just asks for a stop, so that re-raise is harmless, a
    # signal arriving before uvicorn's handlers are in place still stops us,
    # and the process exits 0.
    def request_stop(*_: object) -> None:
        server.should_exit = True

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, request_stop)

    async def run() -> None:
        serve = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started:
            if serve.done():
                await serve  # startup failed: propagate
                raise SystemExit("uvicorn exited before start")
            await asyncio.sleep(0.01)
        if server.should_exit:
            await serve
            return
        sys.stdout.write(f"READY http://127.0.0.1:{port}/mcp\n")
        sys.stdout.flush()
        # Docket's worker drains running executions on shutdown and would wait
        # forever for a `forever` task; once a signal asked us to stop, give the
        # graceful path SHUTDOWN_GRACE_S, then exit 0 regardless (all task
        # state is in-memory anyway).
        while not serve.done():
            if server.should_exit:
                timer = threading.Timer(SHUTDOWN_GRACE_S, lambda: os._exit(0))
                timer.daemon = True
                timer.start()
                break
            await asyncio.sleep(0.05)
        await serve

    asyncio.run(run())
    return 0


def _relay_stdin_with_eof_deadline() -> None:
    """Put a pipe between the real stdin and the MCP stdio transport.

    On stdin EOF FastMCP's stdio loop ends and the lifespan shuts Docket's
    worker down, which waits for running executions: a `forever` task would
    keep the process alive indefinitely. A relay thread copies the real stdin
    (a dup of fd 0) into a pipe that becomes fd 0 for the transport; at EOF it
    closes the pipe (the transport sees EOF and shuts down normally) and arms
    a timer that exits 0 after SHUTDOWN_GRACE_S if that shutdown hangs.
    """
    real_stdin = os.dup(0)
    read_end, write_end = os.pipe()
    os.dup2(read_end, 0)
    os.close(read_end)

    def relay() -> None:
        try:
            while True:
                chunk = os.read(real_stdin, 65536)
                if not chunk:
                    break
                view = memoryview(chunk)
                while view:
                    view = view[os.write(write_end, view):]
        except OSError:
            pass
        finally:
            timer = threading.Timer(SHUTDOWN_GRACE_S, lambda: os._exit(0))
            timer.daemon = True
            timer.start()
            try:
                os.close(write_end)
            except OSError:
                pass

    threading.Thread(target=relay, name="stdin-relay", daemon=True).start()


def run_stdio(poll_ms: int) -> int:
    # stdout carries only JSON-RPC from here on: no banner, no READY line.
    # SIGTERM/SIGINT: exit 0 at once. (A graceful stop cannot work: asyncio's
    # shutdown would wait for the worker thread blocked reading stdin.)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: os._exit(0))
    _relay_stdin_with_eof_deadline()
    mcp = build_server(poll_ms)
    mcp.run(transport="stdio", show_banner=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
