// Fails to compile if any exported function's parameters or result are `any`.
import * as api from "mcp-tasks-wasm";

type IsAny<T> = 0 extends 1 & T ? true : false;
type AnyIn<F> = F extends (...args: infer A) => infer R ? (true extends IsAny<R> ? true : true extends { [K in keyof A]: IsAny<A[K]> }[number] ? true : false) : IsAny<F>;
type Exports = typeof api;
type Keys = Extract<keyof Exports, string>;
type WithAny = { [K in Keys]: AnyIn<Exports[K]> extends true ? K : never }[Keys];
const none: [WithAny] extends [never] ? true : WithAny = true;
export default none;
