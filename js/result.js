// Reading a tool result: the one helper the README's examples need (`resultText`). A module of its own:
// an app that does not import it does not ship it.
import { readKey } from "./values.js";

/** The text of a tool result: its `content` blocks of type `"text"`, their `text` joined with "\n"
 * (`""` when it has none). Never throws: what cannot be read (a throwing getter, a non-array `content`,
 * a block without a string `text`) counts as absent. */
export function resultText(result) {
  const content = readKey(result, "content");
  const texts = [];
  let length = 0;
  try {
    length = Array.isArray(content) ? content.length : 0;
  } catch {}
  for (let i = 0; i < length; i++) {
    const block = readKey(content, i);
    const text = readKey(block, "text");
    if (readKey(block, "type") === "text" && typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}
