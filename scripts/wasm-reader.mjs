// Reading a wasm module's binary by hand (its sections, LEB128 numbers, names) for the scripts that
// look inside built modules: scripts/size.mjs (function sizes by name) and tests/crate (exports).

/** A cursor over a module's bytes. */
export class WasmReader {
  /** Starts after the magic number and version. */
  constructor(bytes) {
    this.bytes = bytes;
    this.at = 8;
  }

  /** The unsigned LEB128 number at the cursor. */
  leb() {
    let v = 0;
    for (let shift = 0; ; shift += 7) {
      const b = this.bytes[this.at++];
      v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
  }

  /** The length-prefixed UTF-8 name at the cursor. */
  name() {
    const len = this.leb();
    const text = new TextDecoder().decode(this.bytes.subarray(this.at, this.at + len));
    this.at += len;
    return text;
  }

  /** Each section in turn as `{id, end}`, the cursor at its contents; the next one starts at `end`
   * whatever the caller read of it. */
  *sections() {
    while (this.at < this.bytes.length) {
      const id = this.bytes[this.at++];
      const end = this.leb() + this.at;
      yield { id, end };
      this.at = end;
    }
  }
}

/** The names a module exports (its export section), in order. */
export function exportNames(bytes) {
  const r = new WasmReader(bytes);
  const names = [];
  for (const { id } of r.sections()) {
    if (id !== 7) continue;
    for (let n = r.leb(); n > 0; n--) {
      names.push(r.name());
      r.at += 1; // the kind
      r.leb(); // the index
    }
  }
  return names;
}
