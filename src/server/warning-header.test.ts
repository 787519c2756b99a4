import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { addWarning } from './http.js';

const response = () => new ServerResponse(new IncomingMessage(new Socket()));
const warnings = (res: ServerResponse) => (res.getHeader('warning') ?? []) as string[];
/** The header's text read back as the UTF-8 its bytes are. */
const decoded = (value: string) => Buffer.from(value, 'latin1').toString('utf8');

describe('Warning headers', () => {
  it('quote each text once, as Go does, with UTF-8 bytes for text outside ASCII', () => {
    const res = response();
    addWarning(res, 'unknown field "a"');
    addWarning(res, 'unknown field "a"');
    addWarning(res, 'unknown field "名前"');
    addWarning(res, '');
    assert.deepEqual(warnings(res).map(decoded), ['299 - "unknown field \\"a\\""', '299 - "unknown field \\"名前\\""']);
  });

  it('stay bounded: past 4096 runes every text is cut to 256 runes, and later ones are dropped', () => {
    const res = response();
    addWarning(res, 'short');
    addWarning(res, `long ${'é'.repeat(5000)}`);
    assert.deepEqual(warnings(res).map(decoded), ['299 - "short"', `299 - "long ${'é'.repeat(251)}"`]);
    for (let i = 0; i < 10_000; i++) addWarning(res, `unknown field "${'x'.repeat(300)}${i}"`);
    const all = warnings(res);
    // 4096 runes of text at most, plus each header's quoting.
    assert.ok(all.length <= 2 + Math.ceil(4096 / 256), String(all.length));
    assert.ok(all.every((w) => decoded(w).length <= 256 + 12));
  });

  it('below the limit are kept whole', () => {
    const res = response();
    const text = `unknown field "${'y'.repeat(1000)}"`;
    addWarning(res, text);
    assert.deepEqual(warnings(res), [`299 - "unknown field \\"${'y'.repeat(1000)}\\""`]);
  });
});
