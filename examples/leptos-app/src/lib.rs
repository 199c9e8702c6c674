//! A Leptos 0.8 CSR app on mcp-tasks-wasm: Run starts a tool as a task (`call_and_await`), the task's
//! statuses show as they change (`on_status` writes a signal), Cancel sends `tasks/cancel` (a
//! `CancelHandle` as the wait's `cancel_signal`), and the outcome shows at the end.
//!
//! What Leptos asks of a library whose futures and clients are not `Send` (JS values live on one
//! thread): keep the client in `StoredValue::new_local` (not `StoredValue::new`), and run the call with
//! `leptos::task::spawn_local` (or `Action::new_local`), not `Action::new`/`spawn` — those require
//! `Send` and fail with E0277 naming the library's internal types. Signals are `Copy` handles: a
//! callback of the library may write them.

use leptos::prelude::*;
use leptos::task::spawn_local;
use mcp_tasks_wasm::{call_and_await, on_status, AwaitOptions, CallOptions, CancelHandle, HttpClient, WaitOutcome};
use wasm_bindgen::prelude::*;

/// The MCP server: `/mcp` on the page's origin.
fn server_url() -> String {
    format!("{}/mcp", window().location().origin().unwrap_or_default())
}

/// The outcome of a run, as the page shows it: its tag and a line of text.
fn shown(outcome: Result<WaitOutcome, mcp_tasks_wasm::Error>) -> (&'static str, String) {
    match outcome {
        Ok(WaitOutcome::Ok(result)) => ("ok", result.text()),
        Ok(WaitOutcome::Cancelled(status)) => ("cancelled", format!("task {} cancelled", status.task_id)),
        Ok(WaitOutcome::Error(error)) => ("error", error.to_string()),
        Ok(WaitOutcome::InputRequired(_)) => ("input_required", "the task needs input".to_owned()),
        Err(e) => ("rejected", e.to_string()),
    }
}

/// The page.
#[component]
fn App() -> impl IntoView {
    let url = server_url();
    // Not `Send`: kept with `new_local`.
    let client = StoredValue::new_local(HttpClient::new(&url));
    let cancel = StoredValue::new_local(None::<CancelHandle>);
    let (statuses, set_statuses) = signal(Vec::<(String, String)>::new());
    let (outcome, set_outcome) = signal(None::<(&'static str, String)>);
    let (running, set_running) = signal(false);

    let run = move |tool: &'static str| {
        let Ok(client) = client.get_value() else { return };
        let handle = CancelHandle::new();
        cancel.set_value(Some(handle.clone()));
        set_statuses.set(Vec::new());
        set_outcome.set(None);
        set_running.set(true);
        // Not `Send` either: `spawn_local`, not `spawn` or `Action::new`.
        spawn_local(async move {
            let wait = AwaitOptions {
                cancel_signal: handle.signal(),
                on_status: Some(on_status(move |s| {
                    let line = (s.state.as_str().to_owned(), s.status_message.clone().unwrap_or_default());
                    set_statuses.update(|all| all.push(line));
                })),
                ..AwaitOptions::default()
            };
            let args = serde_json::json!({ "ms": 400 });
            let ended = call_and_await(&client, tool, &args, CallOptions::default(), wait).await;
            set_outcome.set(Some(shown(ended)));
            set_running.set(false);
        });
    };

    view! {
        <h1>"leptos-app"</h1>
        <p class="sub">"MCP tasks from a Leptos CSR app — server: " <code id="server">{url.clone()}</code></p>
        <section class="row">
            <button id="run-slow" disabled=move || running.get() on:click=move |_| run("slow")>"Run slow"</button>
            <button id="run-forever" disabled=move || running.get() on:click=move |_| run("forever")>"Run forever"</button>
            <button id="cancel" class="danger" disabled=move || !running.get()
                on:click=move |_| cancel.with_value(|c| if let Some(c) = c { c.cancel() })>"Cancel"</button>
        </section>
        <section>
            <h2>"Statuses"</h2>
            <ol id="statuses">
                {move || statuses.get().into_iter().map(|(state, message)| {
                    let label = state.clone();
                    view! { <li data-state=state>{label} " " {message}</li> }
                }).collect_view()}
            </ol>
        </section>
        <section>
            <h2>"Outcome"</h2>
            {move || outcome.get().map(|(tag, text)| view! { <p id="outcome" data-outcome=tag>{text}</p> })}
        </section>
    }
}

/// Mounts the app (wasm-bindgen's start function).
#[wasm_bindgen(start)]
pub fn start() {
    leptos::mount::mount_to_body(App);
}
