// The wasm shell's JS side: the reads the module makes of application values (catching what a
// getter, a Proxy trap or a revoked Proxy throws, so nothing thrown ever crosses into the module), and
// the few builds it makes; and `emit`, which hands a machine's actions to js/run.js, the driver.

/** `target[key]` of an object (not null, not a function), else undefined — also when reading it
 * throws (a getter, a Proxy trap, a revoked Proxy). */
export function readKey(target, key) {
  if (typeof target !== "object" || target === null) return undefined;
  try {
    return target[key];
  } catch {
    return undefined;
  }
}

/** `target[key] = value` on an object the module just made. */
export function writeKey(target, key, value) {
  target[key] = value;
}

/** The own enumerable entries of a plain object, flat (`[key, value, …]`, values read with `readKey`,
 * undefined ones left out), or undefined for anything else and when its keys cannot be read. */
export function entriesOf(v) {
  if (kindOf(v) !== 5) return undefined;
  let keys;
  try {
    keys = Object.keys(v);
  } catch {
    return undefined;
  }
  const out = [];
  for (const k of keys) {
    const x = readKey(v, k);
    if (x !== undefined) out.push(k, x);
  }
  return out;
}

/** The items of an array (a copy), or undefined when `v` is not a readable array. */
export function itemsOf(v) {
  try {
    return Array.isArray(v) ? Array.from(v) : undefined;
  } catch {
    return undefined;
  }
}

/** `list.length` of an array the package made (entriesOf, itemsOf): no getter can run. */
export function lengthOf(list) {
  return list.length;
}

/** `list[i]` of an array the package made (entriesOf, itemsOf, run.js's option numbers): no getter can run. */
export function itemAt(list, i) {
  return list[i];
}

/** A new empty plain object. */
export function newObject() {
  return {};
}

/** A new empty array. */
export function newArray() {
  return [];
}

/** `list.push(item)` on an array the module just made. */
export function pushItem(list, item) {
  list.push(item);
}

/** 0 null, 1 boolean, 2 number, 3 string, 4 array, 5 object, 6 anything else (also unreadable). */
export function kindOf(v) {
  if (v === null) return 0;
  switch (typeof v) {
    case "boolean":
      return 1;
    case "number":
      return 2;
    case "string":
      return 3;
    case "object":
      try {
        return Array.isArray(v) ? 4 : 5;
      } catch {
        return 6;
      }
    default:
      return 6;
  }
}

/** Appends one action of a machine to the JS driver's list (src/wasm/runs.rs, `feed`). */
export function emit(out, code, id, a, b, c, d, ms) {
  out.push(code, id, a, b, c, d, ms);
}

/** `true` for a DOMException (never a JSON-RPC error, though it has a numeric `code`). */
export function isException(v) {
  try {
    return typeof DOMException === "function" && v instanceof DOMException;
  } catch {
    return false;
  }
}

/** `true` for an absolute http(s) URL with a host and no credentials, by the WHATWG URL parser. */
export function isSafeWebUrl(s) {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.hostname !== "" && u.username === "" && u.password === "";
  } catch {
    return false;
  }
}

/** Freezes a value the module built, deeply (it is then safe to share between calls). */
export function deepFreeze(v) {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const k of Object.keys(v)) deepFreeze(v[k]);
  }
  return v;
}
