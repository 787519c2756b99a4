/**
 * The watch event wire encoding, in one place: one JSON object per line,
 * `{"type":"ADDED","object":{...}}\n` (upstream's `application/json;stream=watch` framing of
 * metav1.WatchEvent). Lines are built around an object's already-encoded JSON, so an event
 * shared by many watchers is encoded once.
 */

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

const HEADS: Readonly<Record<WatchEventType, Buffer>> = {
  ADDED: Buffer.from('{"type":"ADDED","object":'),
  MODIFIED: Buffer.from('{"type":"MODIFIED","object":'),
  DELETED: Buffer.from('{"type":"DELETED","object":'),
  BOOKMARK: Buffer.from('{"type":"BOOKMARK","object":'),
  ERROR: Buffer.from('{"type":"ERROR","object":'),
};
const TAIL = Buffer.from('}\n');

/** The line of an event whose object is already encoded as compact JSON. */
export function watchEventLine(type: WatchEventType, objectJson: Buffer): Buffer {
  return Buffer.concat([HEADS[type], objectJson, TAIL]);
}

/** The line of an event carrying an object not yet encoded (a bookmark, an error Status, a Table). */
export function encodeWatchEvent(type: WatchEventType | string, object: unknown): Buffer {
  return Buffer.from(`${JSON.stringify({ type, object })}\n`);
}

export interface WatchEvent {
  type: WatchEventType;
  object: Record<string, unknown>;
}

/** Decoded lines, kept while the line is: a line shared by many watchers is parsed once. */
const decoded = new WeakMap<Buffer, WatchEvent>();

/** The event of one line. The result is shared by every caller with the same line: never mutate it. */
export function decodeWatchEvent(line: Buffer): WatchEvent {
  let event = decoded.get(line);
  if (event === undefined) {
    event = JSON.parse(line.toString('utf8')) as WatchEvent;
    decoded.set(line, event);
  }
  return event;
}
