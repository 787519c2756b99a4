/**
 * The value checks of upstream's apimachinery pkg/util/validation that core validation uses
 * (port numbers and names, environment variable names, config keys, IPs and CIDRs, user and
 * group IDs), each returning upstream's messages, plus the field-level helpers of
 * apimachinery/pkg/api/validation (non-negative fields, immutable fields).
 */
import { isIPv6 } from 'node:net';
import { deepEqual } from '../../machinery/deep-equal.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { maxLenError, regexError } from '../../machinery/validation.js';

export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';

/** Upstream's InclusiveRangeError. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

/** Upstream's IsValidPortNum: 1..65535. */
export function isValidPortNum(port: number): string[] {
  return Number.isInteger(port) && port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** Upstream's IsInRange. */
export function isInRange(value: number, lo: number, hi: number): string[] {
  return value >= lo && value <= hi ? [] : [inclusiveRangeError(lo, hi)];
}

/** Upstream's IsValidPortName (an IANA service name: ≤ 15 of [-a-z0-9], a letter, no edge or double hyphens). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** Upstream's hasChDirPrefix. */
function chDirPrefixErrors(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
const ENV_VAR_NAME_RE = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const ENV_VAR_NAME_ERR = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";

/** Upstream's IsEnvVarName. */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME_RE.test(value)) errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  errs.push(...chDirPrefixErrors(value));
  return errs;
}

const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';
const CONFIG_MAP_KEY_RE = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);
const CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

/** Upstream's IsConfigMapKey (ConfigMap and Secret keys). */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!CONFIG_MAP_KEY_RE.test(value)) errs.push(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...chDirPrefixErrors(value));
  return errs;
}

const HTTP_HEADER_NAME_FMT = '[-A-Za-z0-9]+';

/** Upstream's IsHTTPHeaderName. */
export function isHTTPHeaderName(value: string): string[] {
  if (new RegExp(`^${HTTP_HEADER_NAME_FMT}$`).test(value)) return [];
  return [regexError("a valid HTTP header must consist of alphanumeric characters or '-'", HTTP_HEADER_NAME_FMT, 'X-Header-Name')];
}

/** An IP address as Go's ParseIPSloppy reads it (IPv4 octets may have leading zeros). */
export interface ParsedIP {
  family: 4 | 6;
  /** 4 or 16 bytes. */
  bytes: number[];
}

function parseIPv4Sloppy(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    bytes.push(Number(p));
  }
  return bytes;
}

function parseIPv6(s: string): number[] | undefined {
  if (!isIPv6(s) || s.includes('%')) return undefined;
  let text = s;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(':');
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = parseIPv4Sloppy(text.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const groups = (g: string): number[] => (g === '' ? [] : g.split(':').map((h) => Number.parseInt(h, 16)));
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const words = rest === undefined ? h : [...h, ...new Array(8 - h.length - r.length).fill(0), ...r];
  const bytes = words.flatMap((w) => [w >> 8, w & 0xff]);
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

/** Go's netutils.ParseIPSloppy: an IPv4 or IPv6 address, or undefined. */
export function parseIP(s: string): ParsedIP | undefined {
  const v4 = parseIPv4Sloppy(s);
  if (v4) return { family: 4, bytes: v4 };
  const v6 = parseIPv6(s);
  return v6 ? { family: 6, bytes: v6 } : undefined;
}

/** Upstream's (1.25) IsValidIP. */
export function isValidIP(value: string): string[] {
  return parseIP(value) ? [] : ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
}

/** True for an IPv6 text (Go's netutils.IsIPv6String). */
export function isIPv6String(value: string): boolean {
  return parseIP(value)?.family === 6;
}

/** Go's ParseCIDRSloppy: `<ip>/<prefix>` with a prefix within the family's width. */
export function parseCIDR(value: string): ParsedIP | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(value.slice(0, slash));
  const bits = value.slice(slash + 1);
  if (!ip || !/^\d{1,3}$/.test(bits)) return undefined;
  // An IPv4 address written in IPv6 form still takes an IPv6 prefix length.
  const width = ip.family === 4 ? 32 : 128;
  return Number(bits) <= width ? ip : undefined;
}

/** Upstream's ValidateNonSpecialIP (Endpoints addresses, external IPs). */
export function validateNonSpecialIP(ip: string, fldPath: string): FieldError[] {
  const parsed = parseIP(ip);
  if (!parsed) return [invalid(fldPath, ip, 'must be a valid IP address')];
  const b = parsed.family === 6 && isV4Mapped(parsed.bytes) ? parsed.bytes.slice(12) : parsed.bytes;
  const errs: FieldError[] = [];
  const v4 = b.length === 4;
  if (b.every((x) => x === 0)) errs.push(invalid(fldPath, ip, `may not be unspecified (${ip})`));
  const loopback = v4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push(invalid(fldPath, ip, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocalUnicast = v4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1] & 0xc0) === 0x80;
  if (linkLocalUnicast) errs.push(invalid(fldPath, ip, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const linkLocalMulticast = v4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1] & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push(invalid(fldPath, ip, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

function isV4Mapped(b: number[]): boolean {
  return b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
}

const MAX_ID = 0xffffffff;

/** Upstream's IsValidUserID / IsValidGroupID: 0..2^32-1. */
export function isValidUnixID(id: number): string[] {
  return id >= 0 && id <= MAX_ID ? [] : [inclusiveRangeError(0, MAX_ID)];
}

/** Upstream's ValidateNonnegativeField. */
export function validateNonnegativeField(value: number, fldPath: string): FieldError[] {
  return value < 0 ? [invalid(fldPath, value, IS_NEGATIVE_ERROR_MSG)] : [];
}

/** Upstream's ValidateImmutableField (semantic equality over JSON; absent equals null). */
export function validateImmutableField(newVal: unknown, oldVal: unknown, fldPath: string, shownValue: unknown = newVal): FieldError[] {
  return deepEqual(newVal ?? null, oldVal ?? null) ? [] : [invalid(fldPath, shownValue ?? null, FIELD_IMMUTABLE_ERROR_MSG)];
}
