// A node:test reporter for `npm test`: one line per test file as its top-level tests finish
// (so a long run shows progress instead of minutes of silence) and the totals at the end.
import { relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

export default async function* fileProgress(source) {
  let pass = 0;
  let fail = 0;
  const started = Date.now();
  for await (const { type, data } of source) {
    // What a test file prints (timings, diagnostics) shows as it happens, as under the spec reporter.
    if (type === 'test:stdout' || type === 'test:stderr') yield data.message;
    if (type !== 'test:pass' && type !== 'test:fail') continue;
    const ok = type === 'test:pass';
    // Suites are counted through their tests; skipped and todo tests neither pass nor fail.
    if (data.details?.type !== 'suite' && !data.skip && !data.todo) ok ? pass++ : fail++;
    if (data.nesting !== 0) continue;
    const file = data.file ? relative(root, data.file) : '';
    const seconds = ((data.details?.duration_ms ?? 0) / 1000).toFixed(1);
    yield `${ok ? '✔' : '✖'} ${file} › ${data.name} (${seconds}s)\n`;
  }
  yield `ℹ pass ${pass}\nℹ fail ${fail}\nℹ duration_ms ${Date.now() - started}\n`;
}
