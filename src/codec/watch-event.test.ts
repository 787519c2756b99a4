import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeWatchEvent, encodeWatchEvent, watchEventLine } from './watch-event.js';

describe('watch event lines', () => {
  it('frame an encoded object and an unencoded one the same way', () => {
    const obj = { kind: 'Pod', metadata: { name: 'a' } };
    assert.deepEqual(watchEventLine('MODIFIED', Buffer.from(JSON.stringify(obj))), encodeWatchEvent('MODIFIED', obj));
    assert.equal(encodeWatchEvent('ADDED', obj).toString(), `{"type":"ADDED","object":${JSON.stringify(obj)}}\n`);
  });

  it('decode a shared line once for every reader', () => {
    const line = watchEventLine('ADDED', Buffer.from('{"kind":"Pod"}'));
    const first = decodeWatchEvent(line);
    assert.deepEqual(first, { type: 'ADDED', object: { kind: 'Pod' } });
    assert.equal(decodeWatchEvent(line), first);
  });
});
