// A node:test reporter for `npm test`: one line per test file as its top-level tests finish
// (so a long run shows progress instead of minutes of silence), the totals at the end, and the
// slowest files (what bounds the run's wall time when files run concurrently).
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SLOWEST_SHOWN = 10;

export default async function* fileProgress(source) {
  let pass = 0;
  let fail = 0;
  const started = Date.now();
  /** Seconds of top-level tests per file. */
  const perFile = new Map();
  for await (const { type, data } of source) {
    // What a test file prints (timings, diagnostics) shows as it happens, as under the spec reporter.
    if (type === 'test:stdout' || type === 'test:stderr') yield data.message;
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const ok = type === 'test:pass';
    // Suites are counted through their tests; skipped and todo tests neither pass nor fail.
    if (data.details?.type !== 'suite' && !data.skip && !data.todo) ok ? pass++ : fail++;
    if (data.nesting !== 0) continue;
    const file = data.file ? relative(root, data.file) : '';
    const seconds = (data.details?.duration_ms ?? 0) / 1000;
    perFile.set(file, (perFile.get(file) ?? 0) + seconds);
    yield `${ok ? '✔' : '✖'} ${file} › ${data.name} (${seconds.toFixed(1)}s)\n`;
  }
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
  yield `ℹ slowest files: ${slowest.map(([file, s]) => `${file} ${s.toFixed(0)}s`).join(', ')}\n`;
  yield `ℹ pass ${pass}\nℹ fail ${fail}\nℹ duration_ms ${Date.now() - started}\n`;
}
