/**
 * Start and stop as a test suite uses them: fifty in-memory control planes one after another in
 * one process leave no sockets, timers or file handles behind and do not grow the heap. The
 * times are printed (this machine is shared; the bounds asserted are generous on purpose).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { startControlPlane } from '../src/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Handles the process had anyway (stdio pipes and terminals), not the control plane's. */
const STDIO = new Set(['PipeWrap', 'TTYWrap', 'FSReqCallback']);
const handles = () => process.getActiveResourcesInfo().filter((r) => !STDIO.has(r));
/**
 * The handles beyond `known` once the loop has had up to 500 ms to finish closing: sockets a
 * stop() destroyed release their handles a turn or two later (TLS close_notify), and
 * immediates queued by the last turn still run. Anything left after that is a leak.
 */
async function leftOver(known: ReadonlySet<string> = new Set()): Promise<string[]> {
  const deadline = Date.now() + 500;
  for (;;) {
    const left = handles().filter((h) => !known.has(h));
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 5));
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

test('50 control planes start and stop in one process without leaking', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-lifecycle-'));
  const before = new Set(handles());
  const starts: number[] = [];
  const stops: number[] = [];
  let heapAfterFirst = 0;
  try {
    for (let i = 0; i < 50; i++) {
      let t = performance.now();
      // One data directory: its certificates are made once, as in a suite that starts many.
      const cp = await startControlPlane({ dataDir: dir, securePort: 0, storageBackend: 'memory', controllers: false });
      starts.push(performance.now() - t);
      assert.equal((await cp.request('GET', '/api/v1/namespaces/default')).status, 200);
      t = performance.now();
      await cp.stop();
      stops.push(performance.now() - t);
      if (i === 0) {
        gc();
        heapAfterFirst = process.memoryUsage().heapUsed;
      }
    }
    gc();
    const growth = process.memoryUsage().heapUsed - heapAfterFirst;
    console.log(
      `start median ${median(starts).toFixed(0)} ms (first ${starts[0].toFixed(0)} ms), stop median ${median(stops).toFixed(0)} ms, heap growth over 49 cycles ${(growth / 2 ** 20).toFixed(1)} MiB`,
    );
    assert.deepEqual(await leftOver(before), [], 'handles left after stop()');
    assert.ok(growth < 64 * 2 ** 20, `heap grew by ${growth} bytes over 49 start/stop cycles`);
    assert.ok(median(starts) < 2000 && median(stops) < 1000, 'start or stop far slower than expected even on a loaded machine');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('with controllers and the scheduler, stop() leaves nothing behind either', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orch-lifecycle-'));
  try {
    const cp = await startControlPlane({ dataDir: dir, securePort: 0, storageBackend: 'memory' });
    const ns = await cp.createNamespace();
    await ns.dispose();
    await cp.stop();
    assert.deepEqual(await leftOver(), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
