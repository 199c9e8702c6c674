//! The wasm shell: keeps the engine's machines by handle and moves them one event at a time for the
//! JS driver (`js/run.js`, which reads the arguments and runs the requests, handlers, signals and the
//! one timer), and exports the synchronous helpers. It makes no protocol decisions.

mod alloc;
mod exports;
mod js_json;
pub(crate) mod rt;
mod runs;

/// The TypeScript declarations of the public API, emitted into the generated `.d.ts`.
#[wasm_bindgen::prelude::wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("types.d.ts");

/// Installs, once, the panic hook: a panic (a bug: the library code denies `unwrap`, `expect`,
/// `panic!` and indexing) is reported on the console with its message and location before the
/// instance traps, instead of a bare `unreachable`. Called on entry by every export.
///
/// The shipped build (scripts/build.mjs) compiles with `-C panic=immediate-abort`: there a panic is
/// the bare trap (no message formatting, no hook, none of `core::fmt`'s panic paths in the module),
/// and this function does nothing. Other wasm builds (clippy, the wasm tests) keep the hook.
pub(crate) fn install_panic_hook() {
    #[cfg(not(panic = "immediate-abort"))]
    {
        thread_local! {
            static INSTALLED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        if INSTALLED.with(|i| i.replace(true)) {
            return;
        }
        std::panic::set_hook(Box::new(|info| {
            rt::console_error(&["mcp-tasks-wasm: internal error (please report it): ", &info.to_string()].concat());
        }));
    }
}
