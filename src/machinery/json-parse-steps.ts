/**
 * JSON.parse as stepped work (machinery/pace.ts), for bodies of megabytes: one native
 * JSON.parse of a 1.4 MB map of 120,000 labels holds the thread for tens of milliseconds, this
 * parser pauses between values when due. Same values as JSON.parse (later duplicate keys win in
 * the first one's place, a `__proto__` key stays a key). Iterative: nesting costs no stack.
 * On text JSON.parse would refuse it throws JsonSyntaxError without a message; callers then
 * call JSON.parse for its own error text.
 */
import { setOwn } from './own-property.js';
import { type Due, Pace, runPaced } from './pace.js';

export class JsonSyntaxError extends Error {}

/** Text this long takes tens of milliseconds to parse at once (a 1.4 MB map of 120,000 labels: 50-130 ms). */
export const LARGE_JSON_CHARS = 256 * 1024;

/**
 * JSON.parse(text), or the same value parsed in steps (pausing whenever the pace is due, taking
 * turns with the paused requests) when the request has paused or the text is large. Work outside
 * a request (a controller's watch event, a value read from the store) passes no pace and gets a
 * pace of its own. Text the stepped parser refuses goes to JSON.parse, whose error is thrown.
 */
export function parseJson(text: string, pace?: Pace): unknown {
  if (!pace?.paused && text.length < LARGE_JSON_CHARS) return JSON.parse(text);
  try {
    const value = runPaced((due) => parseJsonSteps(text, due), pace ?? new Pace());
    return value instanceof Promise ? value.catch((e) => parseRefused(e, text)) : value;
  } catch (e) {
    return parseRefused(e, text);
  }
}

function parseRefused(e: unknown, text: string): unknown {
  if (!(e instanceof JsonSyntaxError)) throw e;
  return JSON.parse(text);
}

/** Values parsed between two looks at the pace. */
const VALUES_PER_STEP = 4096;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

type Container = unknown[] | Record<string, unknown>;

function fail(): never {
  throw new JsonSyntaxError();
}

/** The value of JSON text, in steps. */
export function* parseJsonSteps(text: string, due: Due): Generator<void, unknown, void> {
  const n = text.length;
  let i = 0;
  const skipSpace = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    }
  };
  const readString = (): string => {
    // text[i] is the opening quote. The closing one is the first quote not escaped, that is,
    // after an even run of backslashes.
    const open = i;
    let close = text.indexOf('"', open + 1);
    for (;;) {
      if (close < 0) fail();
      let b = close - 1;
      while (b > open && text.charCodeAt(b) === 0x5c) b--;
      if ((close - 1 - b) % 2 === 0) break;
      close = text.indexOf('"', close + 1);
    }
    i = close + 1;
    const raw = text.slice(open + 1, close);
    if (!NEEDS_DECODING.test(raw)) return raw;
    // Escapes (or a control character, which JSON.parse refuses): decoded natively. Joining
    // the pieces here made a string of a million escapes a million concatenations.
    try {
      return JSON.parse(text.slice(open, close + 1)) as string;
    } catch {
      return fail();
    }
  };
  const readScalar = (): unknown => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return readString();
    if (c === 0x74 && text.startsWith('true', i)) {
      i += 4;
      return true;
    }
    if (c === 0x66 && text.startsWith('false', i)) {
      i += 5;
      return false;
    }
    if (c === 0x6e && text.startsWith('null', i)) {
      i += 4;
      return null;
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m === null) fail();
    i += m[0].length;
    return Number(m[0]);
  };

  const stack: Container[] = [];
  const pendingKeys: string[] = [];
  let root: unknown;
  let count = 0;
  // Each turn reads one value (a scalar, or a container's opening), then what follows it.
  for (;;) {
    skipSpace();
    const c = text.charCodeAt(i);
    let value: unknown;
    let opened: Container | undefined;
    if (c === 0x7b) {
      opened = {};
      value = opened;
      i++;
    } else if (c === 0x5b) {
      opened = [];
      value = opened;
      i++;
    } else value = readScalar();
    // Attach the value to its container (or make it the root).
    const top = stack.at(-1);
    if (top === undefined) root = value;
    else if (Array.isArray(top)) top.push(value);
    else setOwn(top, pendingKeys.pop() as string, value);
    if (++count % VALUES_PER_STEP === 0 && due()) yield;

    let expectValue = false;
    if (opened !== undefined) {
      stack.push(opened);
      skipSpace();
      const close = text.charCodeAt(i);
      if (Array.isArray(opened)) {
        if (close === 0x5d) {
          i++;
          stack.pop();
        } else expectValue = true;
      } else if (close === 0x7d) {
        i++;
        stack.pop();
      } else {
        pendingKeys.push(readKey());
        expectValue = true;
      }
    }
    // After a complete value: separators and closings until the next value or the end.
    while (!expectValue) {
      skipSpace();
      const inner = stack.at(-1);
      if (inner === undefined) {
        if (i !== n) fail();
        return root;
      }
      const d = text.charCodeAt(i++);
      if (d === 0x2c) {
        if (!Array.isArray(inner)) {
          skipSpace();
          pendingKeys.push(readKey());
        }
        expectValue = true;
      } else if (d === (Array.isArray(inner) ? 0x5d : 0x7d)) stack.pop();
      else fail();
    }
  }

  function readKey(): string {
    if (text.charCodeAt(i) !== 0x22) fail();
    const key = readString();
    skipSpace();
    if (text.charCodeAt(i++) !== 0x3a) fail();
    return key;
  }
}

/** A string's raw text that is not its value as it stands: escapes, or control characters (refused). */
const NEEDS_DECODING = /[\\\u0000-\u001f]/;
