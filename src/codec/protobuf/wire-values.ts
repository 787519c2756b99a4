/**
 * JSON <-> Protobuf conversions of single values whose JSON form is not their message shape:
 * Time, MicroTime, FieldsV1, embedded raw JSON (RawExtension, apiextensions JSON), Quantity,
 * IntOrString, ExtraValue, bytes and 64-bit integers. Each pair mirrors the Go type's
 * MarshalJSON/UnmarshalJSON and its Protobuf (un)marshaller.
 */
import { ProtobufDecodeError, ProtobufEncodeError } from './errors.js';

type Msg = Record<string, unknown>;
/** What protobufjs returns for 64-bit fields when the `long` package is present. */
interface LongLike {
  toNumber(): number;
}

/** A protobufjs 64-bit value (Long or number) as a JS number; exact up to 2^53. */
export function int64ToNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'object' && v !== null && typeof (v as LongLike).toNumber === 'function') return (v as LongLike).toNumber();
  return Number(v);
}

/** Bytes as Go's encoding/json writes []byte: standard base64 with padding. */
export function bytesToBase64(v: Uint8Array): string {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64');
}

/** The reverse of bytesToBase64; throws ProtobufEncodeError on a non-string. */
export function base64ToBytes(v: unknown): Uint8Array {
  if (typeof v !== 'string') throw new ProtobufEncodeError(`expected a base64 string, got ${typeof v}`);
  return Buffer.from(v, 'base64');
}

/** 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z: the instants RFC 3339's four-digit years can write. */
const MIN_RFC3339_SECONDS = -62_167_219_200;
const MAX_RFC3339_SECONDS = 253_402_300_799;

// The last conversion each way: the times of one object (and of a burst of objects) are mostly
// the same second, and Date formatting or parsing costs more than the rest of a Time's work.
let lastSeconds = Number.NaN;
let lastIso = '';
let lastText: string | undefined;
let lastParsed = { seconds: 0, nanos: 0 };

function isoSeconds(seconds: number): string {
  if (seconds === lastSeconds) return lastIso;
  // A time no RFC 3339 text can hold (Go's parser could never read it back) is malformed input.
  if (!(seconds >= MIN_RFC3339_SECONDS && seconds <= MAX_RFC3339_SECONDS)) {
    throw new ProtobufDecodeError(`timestamp seconds ${seconds} out of range for RFC 3339`);
  }
  // toISOString gives "YYYY-MM-DDTHH:MM:SS.mmmZ"; the first 19 characters are the RFC 3339 date-time.
  lastIso = new Date(seconds * 1000).toISOString().slice(0, 19);
  lastSeconds = seconds;
  return lastIso;
}

/**
 * meta/v1 Time as JSON: RFC 3339 in UTC, whole seconds; null for the zero time. Go writes the
 * zero time as an empty message and, when reading, drops nanos; we do the same.
 */
export function timeToJson(m: Msg): string | null {
  if (!Object.hasOwn(m, 'seconds') && !Object.hasOwn(m, 'nanos')) return null;
  return `${isoSeconds(int64ToNumber(m.seconds))}Z`;
}

/** meta/v1 MicroTime as JSON: RFC 3339 with exactly six fractional digits; null for the zero time. */
export function microTimeToJson(m: Msg): string | null {
  if (!Object.hasOwn(m, 'seconds') && !Object.hasOwn(m, 'nanos')) return null;
  const micros = Math.floor(((m.nanos as number) ?? 0) / 1000);
  return `${isoSeconds(int64ToNumber(m.seconds))}.${String(micros).padStart(6, '0')}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Parses an RFC 3339 timestamp into {seconds, nanos}; throws ProtobufEncodeError when malformed. */
export function timeFromJson(v: unknown): { seconds: number; nanos: number } {
  if (typeof v === 'string' && v === lastText) return { seconds: lastParsed.seconds, nanos: lastParsed.nanos };
  const m = typeof v === 'string' ? RFC3339.exec(v) : null;
  if (!m) throw new ProtobufEncodeError(`expected an RFC 3339 timestamp, got ${JSON.stringify(v)}`);
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  if (d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    throw new ProtobufEncodeError(`timestamp out of range: ${JSON.stringify(v)}`);
  }
  const offset = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (Number(m[9]) * 3600 + Number(m[10]) * 60);
  const nanos = m[7] === undefined ? 0 : Number(m[7].padEnd(9, '0'));
  lastParsed = { seconds: d.getTime() / 1000 - offset, nanos };
  lastText = v as string;
  return { seconds: lastParsed.seconds, nanos };
}

/**
 * Bytes holding embedded JSON (FieldsV1.Raw, RawExtension.raw, apiextensions JSON.raw), parsed;
 * null when absent or empty, as Go writes a nil Raw. `what` names the field in errors.
 */
export function rawJsonToJson(raw: Uint8Array | undefined, what: string): unknown {
  if (raw === undefined || raw.length === 0) return null;
  try {
    return JSON.parse(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8'));
  } catch {
    throw new ProtobufDecodeError(`${what} is not valid JSON`);
  }
}

/** FieldsV1 as JSON: its Raw bytes parsed (null when Raw is absent, as Go writes nil Raw). */
export function fieldsV1ToJson(m: Msg): unknown {
  return Object.hasOwn(m, 'Raw') ? rawJsonToJson(m.Raw as Uint8Array | undefined, 'FieldsV1.Raw') : null;
}

/** The reverse of fieldsV1ToJson. */
export function fieldsV1FromJson(v: unknown): Msg {
  return { Raw: Buffer.from(JSON.stringify(v)) };
}

/** runtime.RawExtension (and apiextensions JSON) as JSON: the embedded document, null when empty. */
export function rawExtensionToJson(m: Msg): unknown {
  return rawJsonToJson(m.raw as Uint8Array | undefined, 'embedded raw JSON');
}

/** The reverse of rawExtensionToJson: the value's JSON text as the raw bytes. */
export function rawExtensionFromJson(v: unknown): Msg {
  return { raw: Buffer.from(JSON.stringify(v)) };
}

/**
 * ExtraValue (a Go `[]string` that Protobuf wraps as `items`) as JSON: the array, or null for an
 * empty one, as Go decodes it to a nil slice.
 */
export function extraValueToJson(m: Msg): string[] | null {
  const items = m.items as string[] | undefined;
  return items && items.length > 0 ? [...items] : null;
}

/** The reverse of extraValueToJson; throws ProtobufEncodeError unless given an array of strings. */
export function extraValueFromJson(v: unknown): Msg {
  if (!Array.isArray(v) || v.some((s) => typeof s !== 'string')) {
    throw new ProtobufEncodeError(`expected an array of strings, got ${JSON.stringify(v)}`);
  }
  return { items: v };
}

/** Quantity as JSON: its string ("0" for the zero Quantity, as Go writes it). */
export function quantityToJson(m: Msg): string {
  return (m.string as string) || '0';
}

/** Quantity from JSON: a string, or a number as Go's Quantity.UnmarshalJSON also accepts. */
export function quantityFromJson(v: unknown): Msg {
  if (typeof v === 'string') return { string: v };
  if (typeof v === 'number' && Number.isFinite(v)) return { string: String(v) };
  throw new ProtobufEncodeError(`expected a quantity string, got ${JSON.stringify(v)}`);
}

/** IntOrString as JSON: the number (type 0) or the string (type 1). */
export function intOrStringToJson(m: Msg): number | string {
  return int64ToNumber(m.type) === 1 ? ((m.strVal as string) ?? '') : ((m.intVal as number) ?? 0);
}

/** The reverse of intOrStringToJson; throws ProtobufEncodeError for anything else. */
export function intOrStringFromJson(v: unknown): Msg {
  if (typeof v === 'number' && Number.isInteger(v)) return { type: 0, intVal: v };
  if (typeof v === 'string') return { type: 1, strVal: v };
  throw new ProtobufEncodeError(`expected an integer or a string, got ${JSON.stringify(v)}`);
}
