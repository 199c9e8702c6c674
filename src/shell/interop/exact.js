// Strings and keys kept exact between JS and the module (see src/shell/interop/mod.rs, `MARK`). Rust text is UTF-8
// and cannot hold a lone surrogate, so a JS string that has one (or that starts with the mark itself)
// crosses as its escaped form: the mark U+FDD0, then each UTF-16 code unit as four hex digits — one
// to one, so it goes back out as the very string that came in. Also the two checks the module leaves
// to the host, each one import (the DOMException test, the URL test of a url elicitation), and a
// value's kind (one call where the module would make several).
const MARK = "\uFDD0";

/** The escaped form of `s` when Rust text cannot stand for it exactly, else undefined. */
export function escapeText(s) {
  if (!s.startsWith(MARK) && !/[\uD800-\uDFFF]/.test(s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""))) return undefined;
  let out = MARK;
  for (let i = 0; i < s.length; i++) out += s.charCodeAt(i).toString(16).padStart(4, "0");
  return out;
}

/** The string an escaped form stands for (undefined when `s` is not one). */
export function unescapeText(s) {
  const hex = s.slice(1);
  if (hex.length % 4 !== 0 || !/^[0-9a-f]*$/.test(hex)) return undefined;
  let out = "";
  for (let i = 0; i < hex.length; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16));
  return out;
}

/** What kind of value `v` is, in one call (src/json.rs `Kind`, in order): 0 null, 1 boolean, 2 number,
 * 3 string, 4 array, 5 plain object, 6 anything else (also a revoked Proxy, whose `Array.isArray` throws). */
export function kindOf(v) {
  if (v === null) return 0;
  const k = KINDS[typeof v];
  if (k !== 5) return k ?? 6;
  try {
    return Array.isArray(v) ? 4 : 5;
  } catch {
    return 6;
  }
}

/** `kindOf` by `typeof` (an object may still be an array). */
const KINDS = { boolean: 1, number: 2, string: 3, object: 5 };

/** Sets `o[key] = value` as an own data property (assignment would take "__proto__" as the prototype). */
export function defineOwn(o, key, value) {
  Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The global `DOMException` (read at the first check), and whether it was read. */
let domException;
let domExceptionRead = false;

/** Whether `v` is a `DOMException` (never a JSON-RPC error, though it has a numeric `code`): its
 * prototype chain is walked with catching reads, at most 64 steps (a Proxy can make it endless). */
export function isDomException(v) {
  if (!domExceptionRead) {
    domException = typeof DOMException === "undefined" ? undefined : DOMException;
    domExceptionRead = true;
  }
  if (domException == null) return false;
  let proto;
  try {
    proto = Reflect.get(domException, "prototype");
  } catch {
    return false;
  }
  if (typeof proto !== "object" || proto === null) return false;
  for (let i = 0, at = v; i < 64; i++) {
    if (typeof at !== "object" || at === null) return false;
    try {
      at = Reflect.getPrototypeOf(at);
    } catch {
      return false;
    }
    if (at === proto) return true;
  }
  return false;
}

/** Whether `s` is an absolute http(s) URL with a host and no credentials, by the WHATWG URL parser. */
export function isSafeWebUrl(s) {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "" && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}
