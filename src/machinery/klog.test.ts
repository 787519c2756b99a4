import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, test } from 'node:test';
import { klog } from './klog.js';

const captured = { err: [] as string[], out: [] as string[] };
klog.stderr = (l) => captured.err.push(l);
klog.stdout = (l) => captured.out.push(l);

afterEach(() => {
  klog.configure({});
  captured.err.length = 0;
  captured.out.length = 0;
});

test("text lines carry klog's header: severity, date, time, pid, file:line", () => {
  klog.configure({});
  klog.info('plain message');
  klog.warning('structured', { pod: 'default/p', n: 3 });
  assert.match(captured.err[0], new RegExp(`^I\\d{4} \\d{2}:\\d{2}:\\d{2}\\.\\d{6} +${process.pid} klog\\.test\\.js:\\d+\\] plain message\\n$`));
  assert.match(captured.err[1], /^W\d{4} .*\] "structured" pod="default\/p" n=3\n$/);
});

test('-v and --vmodule decide which V lines are written', () => {
  klog.configure({ v: 1 });
  klog.v(1, 'one');
  klog.v(2, 'two');
  assert.equal(captured.err.length, 1);
  klog.configure({ v: 0, vmodule: ['klog.te*=3'] });
  klog.v(3, 'three');
  assert.equal(captured.err.length, 2);
});

test('--skip-headers drops the header', () => {
  klog.configure({ skipHeaders: true });
  klog.info('bare');
  assert.equal(captured.err[0], 'bare\n');
});

test('json lines on standard output with ts, caller, msg, v and the key/values', () => {
  klog.configure({ format: 'json' });
  klog.info('hello', { pod: 'p' });
  klog.error(new Error('boom'), 'failed');
  const a = JSON.parse(captured.out[0]);
  assert.deepEqual(Object.keys(a), ['ts', 'caller', 'msg', 'v', 'pod']);
  assert.equal(a.msg, 'hello');
  assert.equal(a.v, 0);
  assert.ok(a.ts > 1e12, 'ts in epoch milliseconds');
  const b = JSON.parse(captured.out[1]);
  assert.equal(b.err, 'boom');
  assert.equal(captured.err.length, 0);
});

test('--log-dir files per severity, a line in its own and every lower file; --stderrthreshold copies to stderr', () => {
  const dir = mkdtempSync(join(tmpdir(), 'klog-'));
  try {
    klog.configure({ logtostderr: false, logDir: dir, program: 'prog', stderrthreshold: 2 });
    klog.info('an info');
    klog.error(undefined, 'an error');
    klog.close();
    const files = readdirSync(dir);
    const info = files.find((f) => f.includes('.log.INFO.'));
    const error = files.find((f) => f.includes('.log.ERROR.'));
    assert.ok(info && error && files.some((f) => f.includes('.log.WARNING.')));
    assert.match(info, /^prog\.[^.]+.*\.log\.INFO\.\d{8}-\d{6}\.\d+$/);
    const infoText = readFileSync(join(dir, info), 'utf8');
    assert.match(infoText, /^Log file created at: /);
    assert.match(infoText, /an info/);
    assert.match(infoText, /an error/);
    assert.doesNotMatch(readFileSync(join(dir, error), 'utf8'), /an info/);
    assert.equal(captured.err.length, 1, 'only the error reaches stderr');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--log-file past --log-file-max-size starts over', () => {
  const dir = mkdtempSync(join(tmpdir(), 'klog-'));
  try {
    const file = join(dir, 'x.log');
    // 1 MB limit: the second big line does not fit and the file restarts with it.
    klog.configure({ logtostderr: false, logFile: file, logFileMaxSize: 1, skipLogHeaders: true });
    const big = 'x'.repeat(700 * 1024);
    klog.info(`first ${big}`);
    klog.info(`second ${big}`);
    klog.close();
    const text = readFileSync(file, 'utf8');
    assert.doesNotMatch(text, /first/);
    assert.match(text, /second/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sanitization redacts a line whose argument carries a sensitive field', () => {
  klog.configure({ sanitization: true });
  klog.info('user', { creds: { token: 'secret' } });
  assert.match(captured.err[0], /Log message has been redacted\. Log argument #1 contains: \[token\]/);
  assert.doesNotMatch(captured.err[0], /secret/);
});
