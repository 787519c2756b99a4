// A node:test reporter for `npm test`: a line per test file as it finishes (files run several at
// a time, and the runner reports their tests in file order, so without it a long first file
// would leave minutes of silence), one line per top-level test, the totals at the end, and the
// slowest files (what bounds the run's wall time when files run concurrently).
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const SLOWEST_SHOWN = 10;

export default async function* fileProgress(source) {
  let pass = 0;
  let fail = 0;
  const started = Date.now();
  /** Wall-clock seconds each file took, from its start to its end. */
  const perFile = new Map();
  for await (const { type, data } of source) {
    // What a test file prints (timings, diagnostics) shows as it happens, as under the spec reporter.
    if (type === 'test:stdout' || type === 'test:stderr') yield data.message;
    // A file's own test (named by its path) completes as soon as the file does, whatever the order.
    if (type === 'test:complete' && data.nesting === 0 && data.file && data.name === data.file) {
      const file = relative(root, data.file);
      const seconds = (data.details?.duration_ms ?? 0) / 1000;
      perFile.set(file, seconds);
      yield `${data.details?.passed ? '■' : '✖'} ${file} finished (${seconds.toFixed(1)}s)\n`;
      continue;
    }
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const ok = type === 'test:pass';
    // Suites are counted through their tests; skipped and todo tests neither pass nor fail.
    if (data.details?.type !== 'suite' && !data.skip && !data.todo) ok ? pass++ : fail++;
    if (data.nesting !== 0) continue;
    const file = data.file ? relative(root, data.file) : '';
    const seconds = (data.details?.duration_ms ?? 0) / 1000;
    yield `${ok ? '✔' : '✖'} ${file} › ${data.name} (${seconds.toFixed(1)}s)\n`;
  }
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, SLOWEST_SHOWN);
  yield `ℹ slowest files: ${slowest.map(([file, s]) => `${file} ${s.toFixed(0)}s`).join(', ')}\n`;
  yield `ℹ pass ${pass}\nℹ fail ${fail}\nℹ duration_ms ${Date.now() - started}\n`;
}
