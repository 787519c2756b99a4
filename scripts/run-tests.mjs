// Runs every compiled test file with Node's test runner and fails when a test fails or when
// no test ran at all (Node 20's runner does not discover .ts files and exits 0 on zero tests).
// Progress streams as files finish (file-progress-reporter.mjs); the spec reporter's full
// output goes to a log whose failures are printed at the end.
import { createWriteStream, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import fileProgress from './file-progress-reporter.mjs';

const root = new URL('..', import.meta.url).pathname;
const filter = process.argv.slice(2);
/**
 * Test files run this many at a time. Node 20 defaults to one fewer than the cores (1 on a
 * 2-core machine), but most files spend their time waiting on servers, child processes and
 * kubectl. ORCH_TEST_CONCURRENCY overrides it (1 runs files one by one).
 */
const concurrency = Number(process.env.ORCH_TEST_CONCURRENCY ?? 3);

function findTests(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...findTests(p));
    else if (entry.name.endsWith('.test.js')) out.push(p);
  }
  return out;
}

/**
 * The files that take longest (measured on a 2-core machine, run alone), started first so none
 * of them is left running alone at the end of a concurrent run. Only the order depends on this
 * list: a file missing from it runs all the same, after these.
 */
const LONGEST_FIRST = [
  'test/hostile-input.test.js',
  'test/etcd-store.test.js',
  'test/keep-alive-bodies.test.js',
  'test/garbage-collector.test.js',
  'test/startup-failures.test.js',
  'test/etcd-faults.test.js',
  'test/authn-oidc.test.js',
  'test/connection-limits.test.js',
  'test/e2e-kubectl-fidelity.test.js',
];
const rank = (f) => {
  const i = LONGEST_FIRST.findIndex((suffix) => f.endsWith(suffix));
  return i < 0 ? LONGEST_FIRST.length : i;
};

let files = findTests(join(root, 'dist')).sort();
if (filter.length > 0) files = files.filter((f) => filter.some((x) => f.includes(x)));
files.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
if (files.length === 0) {
  console.error('no test files found under dist/');
  process.exit(1);
}
console.log(`running ${files.length} test files, ${concurrency} at a time`);
const logDir = mkdtempSync(join(tmpdir(), 'orch-tests-'));
const specLog = join(logDir, 'spec.log');
// node:test's run() keeps the files' order (the --test command line sorts them by name). Each
// file runs in a child process, with this environment and working directory.
process.env.ORCH_TEST = '1';
process.chdir(root);
const events = run({ files, concurrency });
// The same events to both reporters: progress to stdout, the full spec output to a log.
const toProgress = new PassThrough({ objectMode: true });
const toSpec = new PassThrough({ objectMode: true });
events.on('data', (event) => {
  toProgress.write(event);
  toSpec.write(event);
});
events.on('end', () => {
  toProgress.end();
  toSpec.end();
});
const specDone = finished(toSpec.compose(spec).pipe(createWriteStream(specLog)));
let summary = '';
for await (const chunk of toProgress.compose(fileProgress)) {
  process.stdout.write(chunk);
  summary = (summary + chunk).slice(-4096);
}
await specDone;
const pass = Number(/ℹ pass (\d+)/.exec(summary)?.[1] ?? 0);
const fail = Number(/ℹ fail (\d+)/.exec(summary)?.[1] ?? 0);
if (fail > 0) {
  const specText = readFileSync(specLog, 'utf8');
  const failures = specText.indexOf('✖ failing tests:');
  process.stdout.write(failures >= 0 ? `\n${specText.slice(failures)}` : `\n${specText}`);
}
rmSync(logDir, { recursive: true, force: true });
console.log(`${pass} passed, ${fail} failed`);
if (fail > 0) process.exit(1);
if (pass === 0) {
  console.error('no test ran');
  process.exit(1);
}
