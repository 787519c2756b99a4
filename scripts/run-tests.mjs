// Runs every compiled test file with Node's test runner and fails when a test fails or when
// no test ran at all (Node 20's runner does not discover .ts files and exits 0 on zero tests).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv.slice(2);

function findTests(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

let files = findTests(join(root, 'dist')).sort();
if (filter.length > 0) files = files.filter((f) => filter.some((x) => f.includes(x)));
if (files.length === 0) {
  console.error('no test files found under dist/');
  process.exit(1);
}
console.log(`running ${files.length} test files`);
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files.map((f) => relative(root, f))], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
  env: { ...process.env, ORCH_TEST: '1' },
});
process.stdout.write(result.stdout);
const pass = Number(/ℹ pass (\d+)/.exec(result.stdout)?.[1] ?? 0);
const fail = Number(/ℹ fail (\d+)/.exec(result.stdout)?.[1] ?? 0);
console.log(`${pass} passed, ${fail} failed`);
if (result.status !== 0 || fail > 0) process.exit(1);
if (pass === 0) {
  console.error('no test ran');
  process.exit(1);
}
