// The watch sink: a watcher whose socket keeps up gets every line written at once; one whose
// socket stops draining gets no more socket writes, only queued references, until its bound
// ends it; a burst is flushed when the socket drains; a single line larger than the bound
// still goes out.
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type { Response } from './http.js';
import { WatchSink } from './watch-sink.js';

/** A response whose socket takes bytes until `stuck`, and releases them on drain(). */
class FakeResponse extends EventEmitter {
  writableLength = 0;
  writes: Buffer[] = [];
  destroyed = false;
  stuck = false;

  write(chunk: Buffer): boolean {
    this.writes.push(chunk);
    if (this.stuck) this.writableLength += chunk.length;
    return this.writableLength < 16 * 1024;
  }

  drain(): void {
    this.stuck = false;
    this.writableLength = 0;
    this.emit('drain');
  }

  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }
}

const line = (n: number, size = 1000) => Buffer.alloc(size, 48 + (n % 10));

function sink(res: FakeResponse, bufferBytes = 100_000) {
  const state = { overflowed: 0 };
  const s = new WatchSink(res as unknown as Response, { bufferBytes, onOverflow: () => state.overflowed++, graceMs: 50 });
  return { s, state };
}

describe('WatchSink', () => {
  it('holds lines while catching up, then writes them in order, then writes live lines at once', () => {
    const res = new FakeResponse();
    const { s } = sink(res);
    s.push(line(1));
    s.push(line(2));
    assert.equal(res.writes.length, 0);
    s.release();
    assert.equal(res.writes.length, 2);
    s.push(line(3));
    assert.equal(res.writes.length, 3);
    assert.deepEqual(
      res.writes.map((b) => b[0]),
      [49, 50, 51],
    );
  });

  it('a socket that stops draining gets no more writes: lines queue as the same Buffers until the bound ends the watcher', async () => {
    const res = new FakeResponse();
    const { s, state } = sink(res);
    s.release();
    res.stuck = true;
    const lines = Array.from({ length: 300 }, (_, i) => line(i));
    let accepted = 0;
    for (const l of lines) if (s.push(l)) accepted++;
    // 64 KiB reach the socket; after that nothing is written, 100,000 bytes are queued, then it ends.
    const written = res.writes.length;
    assert.ok(written >= 64 && written <= 67, `${written} lines written`);
    assert.equal(state.overflowed, 1);
    assert.equal(accepted, written + 100);
    assert.equal(s.overflowed, true);
    assert.equal(s.push(line(0)), false);
    assert.equal(res.writes.length, written);
    // Its socket never drained: it is cut after the grace period.
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(res.destroyed, true);
  });

  it('a watcher that is only a moment behind loses nothing: the queue goes out when the socket drains, in order', () => {
    const res = new FakeResponse();
    const { s, state } = sink(res);
    s.release();
    res.stuck = true;
    for (let i = 0; i < 120; i++) s.push(line(i));
    const before = res.writes.length;
    assert.ok(before < 120);
    res.drain();
    assert.equal(res.writes.length, 120);
    assert.equal(state.overflowed, 0);
    assert.deepEqual(
      res.writes.map((b) => b[0]),
      Array.from({ length: 120 }, (_, i) => 48 + (i % 10)),
    );
  });

  it('a single line larger than the bound is still sent', () => {
    const res = new FakeResponse();
    const { s, state } = sink(res, 10_000);
    s.release();
    res.stuck = true;
    res.writableLength = 70_000;
    assert.equal(s.push(line(1, 50_000)), true);
    assert.equal(state.overflowed, 0);
    res.drain();
    assert.equal(res.writes.length, 1);
    assert.equal(res.writes[0]?.length, 50_000);
  });

  it('finish writes what is queued (a timeout bookmark), unless the watcher overflowed', () => {
    const res = new FakeResponse();
    const { s } = sink(res);
    s.release();
    res.writableLength = 70_000;
    s.push(line(1));
    s.push(line(2));
    assert.equal(res.writes.length, 0);
    s.finish();
    assert.equal(res.writes.length, 2);
  });
});
