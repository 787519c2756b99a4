/**
 * The audit Event (audit.k8s.io/v1 Event, branded for orch) and its two renderings: JSON with
 * the fields in upstream's struct order, as Go's encoder writes it (HTML-safe escapes, maps with
 * sorted keys, MicroTime with six fraction digits), and the legacy one-line text form.
 */
import type { UserInfo } from '../../machinery/user.js';
import { goQuote } from '../../machinery/validation.js';
import type { Level, Stage } from './policy.js';

export interface ObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** metav1.Status's bounded fields, as upstream copies them into the event. */
export interface ResponseStatus {
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code?: number;
}

export interface AuditEvent {
  level: Level;
  auditID: string;
  stage: Stage;
  requestURI: string;
  verb: string;
  user: UserInfo | undefined;
  impersonatedUser?: UserInfo;
  sourceIPs: string[];
  userAgent: string;
  objectRef?: ObjectReference;
  responseStatus?: ResponseStatus;
  /** Compact JSON texts, taken when the handler had them. */
  requestObject?: string;
  responseObject?: string;
  /** Epoch milliseconds with a fraction (microseconds count). */
  requestReceivedTimestamp: number;
  stageTimestamp: number;
  annotations?: ReadonlyMap<string, string>;
}

/** metav1.MicroTime's JSON form: RFC 3339 in UTC with exactly six fraction digits. */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  const micros = Math.floor((ms - Math.floor(ms / 1000) * 1000) * 1000);
  return `${new Date(whole).toISOString().slice(0, 19)}.${String(Math.min(micros, 999_999)).padStart(6, '0')}Z`;
}

/** Go's time.RFC3339Nano in UTC: trailing fraction zeros (and a bare dot) dropped. */
function rfc3339Nano(ms: number): string {
  const micro = microTime(ms);
  const fraction = micro.slice(20, 26).replace(/0+$/, '');
  return `${micro.slice(0, 19)}${fraction === '' ? '' : `.${fraction}`}Z`;
}

/** authentication/v1 UserInfo: username, uid, groups, extra (sorted keys), each omitted when empty. */
function userJson(u: UserInfo | undefined): string {
  if (!u) return '{}';
  const parts: string[] = [];
  if (u.name) parts.push(`"username":${JSON.stringify(u.name)}`);
  if (u.uid) parts.push(`"uid":${JSON.stringify(u.uid)}`);
  if (u.groups && u.groups.length > 0) parts.push(`"groups":${JSON.stringify(u.groups)}`);
  const extra = u.extra ? Object.keys(u.extra).sort() : [];
  if (extra.length > 0) parts.push(`"extra":{${extra.map((k) => `${JSON.stringify(k)}:${JSON.stringify(u.extra?.[k])}`).join(',')}}`);
  return `{${parts.join(',')}}`;
}

const OBJECT_REF_FIELDS = ['resource', 'namespace', 'name', 'uid', 'apiGroup', 'apiVersion', 'resourceVersion', 'subresource'] as const;

function objectRefJson(ref: ObjectReference): string {
  const parts: string[] = [];
  for (const f of OBJECT_REF_FIELDS) if (ref[f]) parts.push(`"${f}":${JSON.stringify(ref[f])}`);
  return `{${parts.join(',')}}`;
}

function responseStatusJson(s: ResponseStatus): string {
  const parts = ['"metadata":{}'];
  if (s.status) parts.push(`"status":${JSON.stringify(s.status)}`);
  if (s.message) parts.push(`"message":${JSON.stringify(s.message)}`);
  if (s.reason) parts.push(`"reason":${JSON.stringify(s.reason)}`);
  if (s.details !== undefined) parts.push(`"details":${JSON.stringify(s.details)}`);
  if (s.code) parts.push(`"code":${s.code}`);
  return `{${parts.join(',')}}`;
}

/** Go's encoder escapes these even inside embedded raw JSON (it compacts Marshaler output HTML-safely). */
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;
const escapeHtml = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** The event as one line of JSON (no newline), fields in upstream's order. */
export function eventJson(ev: AuditEvent, apiVersion: string): string {
  let out = `{"kind":"Event","apiVersion":${JSON.stringify(apiVersion)},"level":"${ev.level}","auditID":${JSON.stringify(ev.auditID)},"stage":"${ev.stage}"`;
  out += `,"requestURI":${JSON.stringify(ev.requestURI)},"verb":${JSON.stringify(ev.verb)},"user":${userJson(ev.user)}`;
  if (ev.impersonatedUser) out += `,"impersonatedUser":${userJson(ev.impersonatedUser)}`;
  if (ev.sourceIPs.length > 0) out += `,"sourceIPs":${JSON.stringify(ev.sourceIPs)}`;
  if (ev.userAgent) out += `,"userAgent":${JSON.stringify(ev.userAgent)}`;
  if (ev.objectRef) out += `,"objectRef":${objectRefJson(ev.objectRef)}`;
  if (ev.responseStatus) out += `,"responseStatus":${responseStatusJson(ev.responseStatus)}`;
  if (ev.requestObject !== undefined) out += `,"requestObject":${ev.requestObject}`;
  if (ev.responseObject !== undefined) out += `,"responseObject":${ev.responseObject}`;
  out += `,"requestReceivedTimestamp":"${microTime(ev.requestReceivedTimestamp)}","stageTimestamp":"${microTime(ev.stageTimestamp)}"`;
  if (ev.annotations && ev.annotations.size > 0) {
    const keys = [...ev.annotations.keys()].sort();
    out += `,"annotations":{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(ev.annotations?.get(k))}`).join(',')}}`;
  }
  return `${out}}`.replace(HTML_UNSAFE, escapeHtml);
}

/** Groups as upstream's auditStringSlice: each %q-quoted, joined by commas. */
const quotedList = (values: readonly string[]) => values.map(goQuote).join(',');

/** Upstream's EventString: the legacy log format's line (no newline). */
export function eventLegacyLine(ev: AuditEvent): string {
  let username = '<none>';
  let groups = '<none>';
  if (ev.user?.name) {
    username = ev.user.name;
    if (ev.user.groups && ev.user.groups.length > 0) groups = quotedList(ev.user.groups);
  }
  let asUser = '<self>';
  let asGroups = '<lookup>';
  if (ev.impersonatedUser) {
    asUser = ev.impersonatedUser.name;
    if (ev.impersonatedUser.groups) asGroups = quotedList(ev.impersonatedUser.groups);
  }
  const namespace = ev.objectRef?.namespace || '<none>';
  const response = ev.responseStatus ? String(ev.responseStatus.code ?? 0) : '<deferred>';
  const ip = ev.sourceIPs[0] ?? '<unknown>';
  return (
    `${rfc3339Nano(ev.requestReceivedTimestamp)} AUDIT: id=${goQuote(ev.auditID)} stage=${goQuote(ev.stage)} ip=${goQuote(ip)} method=${goQuote(ev.verb)}` +
    ` user=${goQuote(username)} groups=${goQuote(groups)} as=${goQuote(asUser)} asgroups=${goQuote(asGroups)} user-agent=${goQuote(ev.userAgent)}` +
    ` namespace=${goQuote(namespace)} uri=${goQuote(ev.requestURI)} response="${response}"`
  );
}
