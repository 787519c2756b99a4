import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../machinery/status.js';
import { applyJsonPatch, applyJsonPatchInSlices, jsonSize, MAX_ACCUMULATED_COPY_BYTES } from './json-patch.js';

const configMap = () => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } });

/** The 4 KB patch of issue 11: 40 copies, each doubling a 1 KiB annotation map. */
function doublingPatch(): unknown[] {
  const ops: unknown[] = [{ op: 'add', path: '/metadata/annotations', value: { x: 'y'.repeat(1024) } }];
  for (let i = 0; i < 40; i++) ops.push({ op: 'copy', from: '/metadata/annotations', path: `/metadata/annotations/c${i}` });
  return ops;
}

function statusOf(f: () => unknown): StatusError {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a StatusError');
}

describe('JSON patch limits', () => {
  it('refuses doubling copies past 3 MiB with upstream 422, allocating no more', () => {
    const start = process.cpuUsage();
    const e = statusOf(() => applyJsonPatch(configMap(), doublingPatch()));
    assert.equal(e.code, 422);
    assert.equal(e.reason, 'Invalid');
    assert.match(e.message, /^Unable to complete the copy, the accumulated size increase of copy is \d+, exceeding the limit 3145728$/);
    // CPU time: the work done, which a machine busy with other work does not stretch.
    const used = process.cpuUsage(start);
    assert.ok((used.user + used.system) / 1000 < 500);
  });

  it('applies copies that stay within the limit', () => {
    const ops = doublingPatch().slice(0, 8);
    const out = applyJsonPatch(configMap(), ops) as { metadata: { annotations: Record<string, unknown> } };
    assert.equal(Object.keys(out.metadata.annotations).length, 8);
  });

  it('refuses more than 10,000 operations with 413 before applying any', () => {
    const ops = Array.from({ length: 10_001 }, () => ({ op: 'test', path: '/kind', value: 'ConfigMap' }));
    const e = statusOf(() => applyJsonPatch(configMap(), ops));
    assert.equal(e.code, 413);
    assert.equal(e.reason, 'RequestEntityTooLarge');
    assert.equal(e.message, 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001');
    assert.doesNotThrow(() => applyJsonPatch(configMap(), ops.slice(1)));
  });

  it('sizes values as compact JSON in UTF-8 bytes', () => {
    for (const v of [null, 1.5, true, 'é"', [], {}, [1, 'a', { b: [null] }], { 'k"': { x: [] } }]) {
      assert.equal(jsonSize(v), Buffer.byteLength(JSON.stringify(v)), JSON.stringify(v));
    }
    assert.equal(MAX_ACCUMULATED_COPY_BYTES, 3 * 1024 * 1024);
  });

  it('applies a costly patch in slices, letting the event loop run between them', async () => {
    const ops: unknown[] = [{ op: 'add', path: '/a', value: new Array(300_000).fill(0) }];
    for (let i = 0; i < 3_000; i++) ops.push({ op: 'add', path: '/a/0', value: i });
    // The loop must turn between slices, and each stretch without a turn must be short. The
    // stretch is measured in CPU time: on a machine busy with other work a wall-clock gap also
    // counts the time this process waited for a core.
    let turns = 0;
    let worstGapMs = 0;
    let lastCpu = process.cpuUsage();
    const timer = setInterval(() => {
      const used = process.cpuUsage(lastCpu);
      worstGapMs = Math.max(worstGapMs, (used.user + used.system) / 1000);
      lastCpu = process.cpuUsage();
      turns++;
    }, 1);
    const out = (await applyJsonPatchInSlices(configMap(), ops)) as { a: number[] };
    clearInterval(timer);
    assert.equal(out.a.length, 303_000);
    assert.equal(out.a[0], 2_999);
    assert.ok(turns >= 3, `the loop turned ${turns} times`);
    assert.ok(worstGapMs < 100, `the loop waited for ${worstGapMs.toFixed(0)} ms of work`);
    const e = await applyJsonPatchInSlices(configMap(), doublingPatch()).then(
      () => assert.fail('expected a refusal'),
      (err: unknown) => err,
    );
    assert.ok(e instanceof StatusError && e.code === 422);
  });
});
