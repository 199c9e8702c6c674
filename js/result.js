// Reading a tool result: the one helper the README's examples need (`resultText`). A module of its own:
// an app that does not import it does not ship it.
import { elementsOf, readKey } from "./values.js";

/** The text of a tool result: its `content` blocks of type `"text"`, their `text` joined with "\n"
 * (`""` when it has none). Never throws: what cannot be read (a throwing getter, a non-array `content`,
 * a block without a string `text`) counts as absent. Takes the time of the blocks `content` really
 * holds, whatever its `length` claims (holes are skipped, not walked). */
export function resultText(result) {
  const texts = [];
  for (const block of elementsOf(readKey(result, "content"))) {
    const text = readKey(block, "text");
    if (readKey(block, "type") === "text" && typeof text === "string") texts.push(text);
  }
  return texts.join("\n");
}
