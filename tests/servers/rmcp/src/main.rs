//! `rmcp-tasks-server`: a real MCP Tasks server (MCP 2026-07-28 + extension
//! `io.modelcontextprotocol/tasks`) built on rmcp 3.11.0, used by the
//! project's interop tests. See README.md for the CLI and the wire facts.

use std::{borrow::Cow, io::Write, time::Duration};

use rmcp::{
    ErrorData as McpError, ServerHandler,
    handler::server::{
        router::tool::ToolRouter,
        tool::{InputResponses, RequestState},
        wrapper::Parameters,
    },
    model::*,
    service::{RequestContext, RoleServer},
    task_manager::{TaskContext, TaskExit, TaskFuture, TaskManager, TaskOptions},
    tool, tool_handler, tool_router,
    transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
    },
};
use serde::Deserialize;
use serde_json::json;
use tower_http::cors::{AllowHeaders, AllowMethods, AllowOrigin, CorsLayer, ExposeHeaders};

// ---------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------

/// Where the server listens: Streamable HTTP on 127.0.0.1:<port>, or stdio.
enum Mode {
    Http(u16),
    Stdio,
}

struct Cli {
    mode: Mode,
    poll_ms: u64,
    ttl_ms: u64,
}

fn usage() -> ! {
    eprintln!(
        "usage: rmcp-tasks-server (--port <N> | --stdio) [--poll-ms <ms, default 100>] [--ttl-ms <ms, default 60000>]"
    );
    std::process::exit(2);
}

fn parse_cli() -> Cli {
    let mut port = None;
    let mut stdio = false;
    let mut poll_ms = 100u64;
    let mut ttl_ms = 60_000u64;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (arg.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next()).unwrap_or_else(|| usage());
        match key.as_str() {
            "--port" => port = Some(value().parse().unwrap_or_else(|_| usage())),
            "--stdio" if inline.is_none() => stdio = true,
            "--poll-ms" => poll_ms = value().parse().unwrap_or_else(|_| usage()),
            "--ttl-ms" => ttl_ms = value().parse().unwrap_or_else(|_| usage()),
            "-h" | "--help" => usage(),
            _ => {
                eprintln!("unknown argument: {arg}");
                usage()
            }
        }
    }
    let mode = match (port, stdio) {
        (Some(port), false) => Mode::Http(port),
        (None, true) => Mode::Stdio,
        (Some(_), true) => {
            eprintln!("--port and --stdio are mutually exclusive");
            usage()
        }
        (None, false) => usage(),
    };
    Cli {
        mode,
        poll_ms,
        ttl_ms,
    }
}

// ---------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------

#[derive(Clone)]
struct TasksServer {
    tool_router: ToolRouter<TasksServer>,
    tasks: TaskManager,
    poll_ms: u64,
    ttl_ms: u64,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct EchoArgs {
    /// Text to echo back.
    text: String,
}

#[derive(Debug, Deserialize, rmcp::schemars::JsonSchema)]
#[schemars(crate = "rmcp::schemars")]
struct SlowArgs {
    /// How long to sleep, in milliseconds (default 300).
    ms: Option<u64>,
}

fn text_result(text: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(text.into())])
}

fn declares_tasks(ctx: &RequestContext<RoleServer>) -> bool {
    ctx.client_capabilities()
        .is_some_and(|caps| caps.supports_tasks())
}

fn tasks_required() -> McpError {
    McpError::missing_required_client_capability(
        ClientCapabilities::builder().enable_tasks().build(),
    )
}

fn form_request(message: &str, schema: serde_json::Value) -> Result<InputRequest, McpError> {
    serde_json::from_value(json!({
        "method": "elicitation/create",
        "params": { "mode": "form", "message": message, "requestedSchema": schema }
    }))
    .map_err(|e| McpError::internal_error(format!("bad input request: {e}"), None))
}

fn ask_request() -> Result<InputRequest, McpError> {
    form_request(
        "What is your name?",
        json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}),
    )
}

fn ask_two_requests() -> Result<(InputRequest, InputRequest), McpError> {
    Ok((
        form_request(
            "What is your first name?",
            json!({"type": "object", "properties": {"first": {"type": "string"}}, "required": ["first"]}),
        )?,
        form_request(
            "What is your last name?",
            json!({"type": "object", "properties": {"last": {"type": "string"}}, "required": ["last"]}),
        )?,
    ))
}

/// One field of an accepted ElicitResult, or `?` (declined, cancelled, missing).
fn answer_field(response: &serde_json::Value, field: &str) -> String {
    match response["content"][field].as_str() {
        Some(v) if response["action"] == "accept" => v.to_string(),
        _ => "?".to_string(),
    }
}

fn confirm_request() -> Result<InputRequest, McpError> {
    form_request(
        "Confirm?",
        json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
    )
}

/// Text for an `ask` answer (an ElicitResult JSON value).
fn ask_answer(response: &serde_json::Value) -> String {
    if response["action"] == "accept"
        && let Some(name) = response["content"]["name"].as_str()
    {
        format!("hello, {name}")
    } else {
        "no name".to_string()
    }
}

/// Text for a `compose` answer (an ElicitResult JSON value).
fn compose_answer(response: &serde_json::Value) -> String {
    if response["action"] == "accept" {
        let ok = response["content"]["ok"].as_bool().unwrap_or(false);
        format!("confirmed: {ok}")
    } else {
        "not confirmed".to_string()
    }
}

/// MRTR `requestState` minted by `compose` for its single round.
const COMPOSE_STATE: &str = "compose-round-1";

impl TasksServer {
    fn new(tasks: TaskManager, poll_ms: u64, ttl_ms: u64) -> Self {
        Self {
            tool_router: Self::tool_router(),
            tasks,
            poll_ms,
            ttl_ms,
        }
    }

    fn options(&self) -> TaskOptions {
        TaskOptions::new()
            .with_poll_interval_ms(self.poll_ms)
            .with_ttl_ms(self.ttl_ms)
    }

    fn spawn<F>(&self, make: F) -> CallToolResponse
    where
        F: FnOnce(TaskContext) -> TaskFuture,
    {
        let task = self.tasks.spawn(self.options(), make);
        CallToolResponse::Task(CreateTaskResult::new(task))
    }
}

#[tool_router]
impl TasksServer {
    #[tool(description = "Echo the text back synchronously (never a task).")]
    async fn echo(
        &self,
        Parameters(EchoArgs { text }): Parameters<EchoArgs>,
    ) -> Result<CallToolResponse, McpError> {
        Ok(text_result(text).into())
    }

    #[tool(description = "Sleep `ms` milliseconds (default 300) as a task.")]
    async fn slow(
        &self,
        Parameters(SlowArgs { ms }): Parameters<SlowArgs>,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let ms = ms.unwrap_or(300);
        let done = move || text_result(format!("slept {ms} ms"));
        if !declares_tasks(&ctx) {
            // No tasks extension on this request: run synchronously.
            tokio::time::sleep(Duration::from_millis(ms)).await;
            return Ok(done().into());
        }
        Ok(self.spawn(move |tctx| {
            Box::pin(async move {
                tokio::select! {
                    _ = tctx.cancelled() => Err(TaskExit::Cancelled),
                    _ = tokio::time::sleep(Duration::from_millis(ms)) => Ok(done()),
                }
            })
        }))
    }

    #[tool(description = "A task that asks for your name (elicitation form) and greets you.")]
    async fn ask(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        if !declares_tasks(&ctx) {
            return Err(tasks_required());
        }
        let request = ask_request()?;
        Ok(self.spawn(move |tctx| {
            Box::pin(async move {
                let response = tctx.request_input("name", request).await?;
                Ok(text_result(ask_answer(&response)))
            })
        }))
    }

    #[tool(
        description = "A task that asks two questions (two elicitation forms, keys `first` and `last`) in one round and greets you."
    )]
    async fn ask_two(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        if !declares_tasks(&ctx) {
            return Err(tasks_required());
        }
        let (first, last) = ask_two_requests()?;
        Ok(self.spawn(move |tctx| {
            Box::pin(async move {
                // join! registers both requests on its first poll, so the task
                // reports `input_required` with both keys at once.
                let (first, last) = tokio::join!(
                    tctx.request_input("first", first),
                    tctx.request_input("last", last)
                );
                let (first, last) = (first?, last?);
                Ok(text_result(format!(
                    "hello, {} {}",
                    answer_field(&first, "first"),
                    answer_field(&last, "last")
                )))
            })
        }))
    }

    #[tool(description = "A task that ends failed with a JSON-RPC error (-32603).")]
    async fn fail(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        let error = || McpError::internal_error("intentional failure", None);
        if !declares_tasks(&ctx) {
            return Err(error());
        }
        Ok(self.spawn(move |_tctx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Err(TaskExit::Error(error()))
            })
        }))
    }

    #[tool(description = "A task that completes with a tool error (isError: true).")]
    async fn tool_error(
        &self,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let result = || CallToolResult::error(vec![ContentBlock::text("tool failed")]);
        if !declares_tasks(&ctx) {
            return Ok(result().into());
        }
        Ok(self.spawn(move |_tctx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(result())
            })
        }))
    }

    #[tool(description = "A task that stays working until tasks/cancel, then ends cancelled.")]
    async fn forever(&self, ctx: RequestContext<RoleServer>) -> Result<CallToolResponse, McpError> {
        if !declares_tasks(&ctx) {
            return Err(tasks_required());
        }
        Ok(self.spawn(move |tctx| {
            Box::pin(async move {
                tctx.cancelled().await;
                Err(TaskExit::Cancelled)
            })
        }))
    }

    #[tool(description = "A tool that can only run as a task (-32021 without the tasks extension).")]
    async fn task_only(
        &self,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if !declares_tasks(&ctx) {
            return Err(tasks_required());
        }
        Ok(self.spawn(move |_tctx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(20)).await;
                Ok(text_result("task only done"))
            })
        }))
    }

    #[tool(
        description = "MRTR then task: first answers input_required (key `confirm`), the retry creates a task."
    )]
    async fn compose(
        &self,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
        ctx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let answer = responses.as_ref().and_then(|r| r.get("confirm")).cloned();
        let answer = match (state.as_deref(), answer) {
            (Some(COMPOSE_STATE), Some(answer)) => answer,
            (None | Some(COMPOSE_STATE), _) => {
                // First round (or a retry without the answer): ask via MRTR.
                let mut requests = InputRequests::new();
                requests.insert("confirm".to_string(), confirm_request()?);
                return Ok(InputRequiredResult::new(
                    Some(requests),
                    Some(COMPOSE_STATE.to_string()),
                )
                .into());
            }
            (Some(other), _) => {
                return Err(McpError::invalid_params(
                    format!("unknown requestState {other:?}"),
                    None,
                ));
            }
        };
        let text = compose_answer(&answer);
        if !declares_tasks(&ctx) {
            return Ok(text_result(text).into());
        }
        Ok(self.spawn(move |_tctx| {
            Box::pin(async move {
                tokio::time::sleep(Duration::from_millis(50)).await;
                Ok(text_result(text))
            })
        }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for TasksServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_tasks()
                .build(),
        )
        .with_server_info(Implementation::new(
            "rmcp-tasks-server",
            env!("CARGO_PKG_VERSION"),
        ))
    }

    fn supported_protocol_versions(&self) -> Cow<'static, [ProtocolVersion]> {
        Cow::Owned(vec![ProtocolVersion::V_2026_07_28])
    }

    async fn get_task(
        &self,
        request: GetTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetTaskResult, McpError> {
        Ok(GetTaskResult::new(self.tasks.get_task(&request.task_id)?))
    }

    async fn update_task(
        &self,
        request: UpdateTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks
            .update_task(&request.task_id, request.input_responses)
    }

    async fn cancel_task(
        &self,
        request: CancelTaskParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), McpError> {
        self.tasks.cancel_task(&request.task_id)
    }
}

// ---------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------

async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).expect("SIGTERM handler");
    tokio::select! {
        _ = term.recv() => {},
        _ = tokio::signal::ctrl_c() => {},
    }
}

#[tokio::main]
async fn main() {
    let cli = parse_cli();
    let tasks = TaskManager::new();
    let server = TasksServer::new(tasks.clone(), cli.poll_ms, cli.ttl_ms);
    match cli.mode {
        Mode::Http(port) => serve_http(server, tasks, port).await,
        Mode::Stdio => serve_stdio(server, tasks).await,
    }
}

/// stdio mode: newline-delimited JSON-RPC on stdin/stdout; nothing else is
/// ever written to stdout (rmcp has no tracing subscriber here, so it logs
/// nothing; our own messages go to stderr). Exits 0 on stdin EOF, SIGTERM or
/// SIGINT (running tasks are aborted), 1 when rmcp rejects the connection
/// before serving (e.g. an `initialize`, or a notification as first message).
async fn serve_stdio(server: TasksServer, tasks: TaskManager) -> ! {
    use rmcp::ServiceExt;
    use rmcp::service::ServerInitializeError;
    let running = tokio::select! {
        res = server.serve(rmcp::transport::stdio()) => res,
        _ = shutdown_signal() => { tasks.shutdown(); std::process::exit(0) }
    };
    let running = match running {
        Ok(running) => running,
        // stdin closed before any request: a normal end.
        Err(ServerInitializeError::ConnectionClosed(_)) => std::process::exit(0),
        Err(e) => {
            eprintln!("rmcp-tasks-server: stdio connection rejected: {e}");
            tasks.shutdown();
            std::process::exit(1);
        }
    };
    tokio::select! {
        res = running.waiting() => {
            if let Err(e) = res {
                eprintln!("rmcp-tasks-server: service loop failed: {e}");
                tasks.shutdown();
                std::process::exit(1);
            }
        }
        _ = shutdown_signal() => {}
    }
    tasks.shutdown();
    std::process::exit(0);
}

async fn serve_http(server: TasksServer, tasks: TaskManager, port: u16) {
    let cli_port = port;

    let config = StreamableHttpServerConfig::default().with_legacy_session_mode(false);
    let cancel = config.cancellation_token.clone();
    let service: StreamableHttpService<TasksServer, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(server.clone()), Default::default(), config);

    let cors = CorsLayer::new()
        .allow_origin(AllowOrigin::any())
        .allow_methods(AllowMethods::mirror_request())
        // Mirror the requested headers: a `*` wildcard never covers
        // `Authorization` in browsers.
        .allow_headers(AllowHeaders::mirror_request())
        .expose_headers(ExposeHeaders::any())
        .max_age(Duration::from_secs(600));
    let router = axum::Router::new()
        .nest_service("/mcp", service)
        .layer(cors);

    let listener = tokio::net::TcpListener::bind(("127.0.0.1", cli_port))
        .await
        .unwrap_or_else(|e| {
            eprintln!("cannot bind 127.0.0.1:{cli_port}: {e}");
            std::process::exit(1);
        });
    let port = listener.local_addr().expect("local addr").port();

    let server_task = tokio::spawn({
        let cancel = cancel.clone();
        async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async move { cancel.cancelled_owned().await })
                .await
        }
    });

    {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "READY http://127.0.0.1:{port}/mcp");
        let _ = out.flush();
    }

    tokio::select! {
        _ = shutdown_signal() => {},
        res = server_task => {
            eprintln!("server stopped unexpectedly: {res:?}");
            tasks.shutdown();
            std::process::exit(1);
        }
    }
    cancel.cancel();
    tasks.shutdown();
    // Give in-flight responses a moment, then exit regardless of idle
    // keep-alive connections.
    tokio::time::sleep(Duration::from_millis(100)).await;
    std::process::exit(0);
}
