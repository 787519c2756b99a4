/**
 * Assertions for validation tests: a write answered 422 Invalid whose details.causes carry
 * exactly the expected field paths and messages (upstream's field.Error rendering).
 */
import assert from 'node:assert/strict';
import type { RawResponse } from './cluster.js';

/** One expected cause: the field path and the message (the error body without the path). */
export type Cause = [field: string, message: string];

/** Asserts r succeeded with the given code and returns its body. */
export function assertOk(r: RawResponse, code = 200): any {
  assert.equal(r.status, code, `expected ${code}, got ${r.status}: ${r.text.slice(0, 800)}`);
  return r.json;
}

/** One cause of a Status as the server writes it. */
export interface StatusCause {
  reason: string;
  field: string;
  message: string;
}

/** Asserts a 422 Invalid for kind and returns its causes. */
export function invalidCauses(r: RawResponse, kind: string): StatusCause[] {
  assert.equal(r.status, 422, `expected 422, got ${r.status}: ${r.text.slice(0, 800)}`);
  assert.equal(r.json.kind, 'Status');
  assert.equal(r.json.reason, 'Invalid');
  assert.equal(r.json.details.kind, kind);
  return r.json.details.causes ?? [];
}

function causesOf(r: RawResponse, kind: string): Cause[] {
  return invalidCauses(r, kind).map((c) => [c.field, c.message]);
}

/** Asserts a 422 Invalid for kind whose causes include every expected one. */
export function assertInvalid(r: RawResponse, kind: string, expected: Cause[]): any {
  const got = causesOf(r, kind);
  for (const want of expected) {
    assert.ok(
      got.some(([f, m]) => f === want[0] && m === want[1]),
      `missing cause ${JSON.stringify(want)}; got ${JSON.stringify(got, null, 1)}`,
    );
  }
  return r.json;
}

/** Asserts a 422 Invalid for kind whose causes are exactly the expected ones, in order. */
export function assertInvalidExactly(r: RawResponse, kind: string, expected: Cause[]): any {
  assert.deepEqual(causesOf(r, kind), expected);
  return r.json;
}
