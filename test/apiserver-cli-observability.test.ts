/**
 * The API server's observability flags as a user meets them on the real binary: --help lists
 * every feature gate with its level and default and the shared metrics and klog flags; an
 * unknown gate, a locked gate's other value, a bad --show-hidden-metrics-for-version and an
 * unknown --logging-format stop start-up; setting a GA gate warns first.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const APISERVER = fileURLToPath(new URL('../src/cmd/orch-apiserver.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'orch-cli-obs-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Runs the binary expected to exit by itself (help or a start-up failure); killed by pid if it does not. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [APISERVER, '--data-dir', join(root, 'd'), '--secure-port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('orch-apiserver observability flags', () => {
  it('--help lists each feature gate with its level and default, and the metrics and logging flags', async () => {
    const { code, stdout } = await run(['--help']);
    assert.equal(code, 0);
    for (const line of [
      'APIListChunking=true|false (BETA - default=true)',
      'APIPriorityAndFairness=true|false (BETA - default=true)',
      'APIResponseCompression=true|false (BETA - default=true)',
      'DryRun=true|false (GA - default=true)',
      'EfficientWatchResumption=true|false (BETA - default=true)',
      'RemainingItemCount=true|false (BETA - default=true)',
      'ServerSideApply=true|false (BETA - default=true)',
      'WarningHeaders=true|false (BETA - default=true)',
      'WatchBookmark=true|false (GA - default=true)',
    ])
      assert.ok(stdout.includes(`\n  ${line}\n`), `--help lists ${line}`);
    for (const flag of ['--show-hidden-metrics-for-version', '--disabled-metrics', '--allow-metric-labels', '--logging-format', '--vmodule', '-v, --v'])
      assert.ok(stdout.includes(flag), `--help lists ${flag}`);
  });

  it('refuses an unknown gate and a locked gate set to its other value', async () => {
    const unknown = await run(['--feature-gates', 'NoSuchGate=true']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /unrecognized feature gate: NoSuchGate/);
    const locked = await run(['--feature-gates=WatchBookmark=false']);
    assert.equal(locked.code, 1);
    assert.match(locked.stderr, /cannot set feature gate WatchBookmark to false, feature is locked to true/);
  });

  it('warns when a GA gate is set, and refuses --show-hidden-metrics-for-version other than the previous minor', async () => {
    const r = await run(['--feature-gates=DryRun=false', '--show-hidden-metrics-for-version=1.20']);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^W\d{4} [\d:.]+ +\d+ feature-gates\.(?:ts|js):\d+\] Setting GA feature gate DryRun=false\. It will be removed in a future release\.$/m,
    );
    assert.match(r.stderr, /--show-hidden-metrics-for-version must be omitted or have the value '1\.24'\. Only the previous minor version is allowed/);
  });

  it('refuses an unknown --logging-format', async () => {
    const r = await run(['--logging-format=xml']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unsupported log format: xml/);
  });
});
