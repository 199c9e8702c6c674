// Library-free repro: V8 11.3 (Node 20) aborts with "unreachable code" in
// Deoptimizer::DoComputeBuiltinContinuation when a TurboFan frame that inlined a JS->Wasm call to an
// export returning externref is lazily deoptimized while that Wasm call is on the stack.
// Usage: node v8-externref-deopt.mjs [externref|i32|externref-nodeopt]
//   externref          -> crash (Fatal error ... unreachable code)
//   i32                -> same code, export returns i32: no crash
//   externref-nodeopt  -> export returns externref but nothing deopts during the call: no crash
// No flags, no library: a 40-byte hand-written wasm module.
const mode = process.argv[2] ?? "externref";
const ret = mode === "i32" ? 0x7f : 0x6f; // i32 | externref
const bytes = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, ret,             // type 0: [] -> [ret]
  0x02, 0x07, 0x01, 0x01, 0x6d, 0x01, 0x66, 0x00, 0x00, // import "m" "f" : type 0
  0x03, 0x02, 0x01, 0x00,                               // func 1 : type 0
  0x07, 0x05, 0x01, 0x01, 0x67, 0x00, 0x01,             // export "g" = func 1
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x10, 0x00, 0x0b,       // func 1: call 0 (the import); end
]);
globalThis.K = 1; // read by the loop as a constant: TurboFan depends on its property cell
let calls = 0;
const trigger = mode === "externref-nodeopt" ? -1 : 200000;
const { exports } = new WebAssembly.Instance(new WebAssembly.Module(bytes), {
  m: { f() { if (++calls === trigger) globalThis.K = 2; /* invalidates the loop's optimized code while Wasm is on the stack */ return 0; } },
});
function run(n) {
  let s = 0;
  for (let i = 0; i < n; i++) { exports.g(); s += K; }
  return s;
}
console.log(mode, "sum", run(400000), "calls", calls, "- survived");
