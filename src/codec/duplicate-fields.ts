/**
 * Keys that occur twice in one JSON object of a document. JSON.parse keeps the last silently;
 * upstream's strict decoder reports each repeat (`duplicate field "replicas"`), so fieldValidation
 * needs them. A single pass over text that JSON.parse has already accepted.
 */
import { type Due, runAtOnce } from '../machinery/pace.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;

/** Characters scanned between two looks at the pace. */
const CHARS_PER_STEP = 256 * 1024;

/** Each repeated key (the repeat, not the first), in document order. Valid JSON only. */
export function duplicateFields(text: string): string[] {
  return runAtOnce((due) => duplicateFieldsSteps(text, due));
}

/** duplicateFields as stepped work (machinery/pace.ts): a body of megabytes is scanned in steps. */
export function* duplicateFieldsSteps(text: string, due: Due): Generator<void, string[], void> {
  const out: string[] = [];
  let nextLook = CHARS_PER_STEP;
  // One entry per open container: the keys seen so far for an object, null for an array.
  const stack: (Set<string> | null)[] = [];
  const n = text.length;
  for (let i = 0; i < n; i++) {
    if (i >= nextLook) {
      nextLook = i + CHARS_PER_STEP;
      if (due()) yield;
    }
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i++;
        } else if (d === QUOTE) break;
      }
      const keys = stack.at(-1);
      if (!keys) continue;
      // A string is a key when the next non-space character is a colon.
      let j = i + 1;
      while (j < n && text.charCodeAt(j) <= 0x20) j++;
      if (text.charCodeAt(j) !== COLON) continue;
      const key = escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
      if (keys.has(key)) out.push(key);
      else keys.add(key);
    } else if (c === OPEN_OBJECT) stack.push(new Set());
    else if (c === OPEN_ARRAY) stack.push(null);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) stack.pop();
  }
  return out;
}
