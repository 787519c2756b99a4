/**
 * `--runtime-config` as a user meets it: a disabled version is gone from discovery and its paths
 * are 404 while the other versions keep serving the same objects; a bad key stops start-up with
 * one line naming it.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseRuntimeConfig } from '../src/api/runtime-config.js';
import { storageVersionHash } from '../src/server/storage-version-hash.js';
import { request, startTestCluster, type TestCluster } from './helpers/cluster.js';

const APISERVER = fileURLToPath(new URL('../src/cmd/orch-apiserver.js', import.meta.url));

describe('--runtime-config on a running server', () => {
  let cluster: TestCluster;
  const call = (path: string, accept?: string) => request(cluster, 'GET', path, { headers: accept ? { accept } : {} });
  before(async () => {
    // The beta versions off, then one of them back on by its bare key.
    cluster = await startTestCluster({ runtimeConfig: parseRuntimeConfig('api/beta=false,flowcontrol.apiserver.orch.io/v1beta1') });
  });
  after(() => cluster.close());

  it('drops a disabled version from discovery and 404s its paths', async () => {
    const group = (await call('/apis/autoscaling')).json;
    assert.deepEqual(
      group.versions.map((v: { version: string }) => v.version),
      ['v2', 'v1'],
    );
    assert.equal((await call('/apis/autoscaling/v2beta2')).status, 404);
    assert.equal((await call('/apis/autoscaling/v2beta2/horizontalpodautoscalers')).status, 404);
    assert.equal((await call('/apis/autoscaling/v2/horizontalpodautoscalers')).status, 200);
    const groups = (await call('/apis')).json.groups.map((g: { name: string }) => g.name);
    assert.ok(!groups.includes('extensions'), groups.join());
    assert.ok(!(await call('/openapi/v2', 'application/json')).json.paths['/apis/autoscaling/v2beta2/horizontalpodautoscalers']);
  });

  it('serves a version switched back on, reading what its storage version holds', async () => {
    const flow = (await call('/apis/flowcontrol.apiserver.orch.io')).json;
    assert.deepEqual(
      flow.versions.map((v: { version: string }) => v.version),
      ['v1beta1'],
    );
    assert.equal((await call('/apis/flowcontrol.apiserver.orch.io/v1beta2/flowschemas')).status, 404);
    // Objects are still stored at v1beta2, and discovery says so.
    const resources = (await call('/apis/flowcontrol.apiserver.orch.io/v1beta1')).json.resources;
    assert.equal(resources[0].storageVersionHash, storageVersionHash('flowcontrol.apiserver.orch.io', 'v1beta2', 'FlowSchema'));
    const list = await call('/apis/flowcontrol.apiserver.orch.io/v1beta1/flowschemas');
    assert.equal(list.status, 200);
    assert.equal(list.json.apiVersion, 'flowcontrol.apiserver.orch.io/v1beta1');
  });
});

describe('--runtime-config at start-up', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-runtime-config-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  function start(value: string): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(process.execPath, [APISERVER, '--data-dir', join(dir, 'data'), '--secure-port', '0', '--runtime-config', value], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    return new Promise((resolve) =>
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stderr });
      }),
    );
  }

  for (const [value, message] of [
    ['batch/v1beta1=true', 'group version batch/v1beta1 that has not been registered'],
    ['api/all=on', 'invalid value api/all=on'],
    ['autoscaling/v2beta2=maybe', 'invalid value of autoscaling/v2beta2: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax'],
  ]) {
    it(`stops on ${value} with one line naming it`, async () => {
      const res = await start(value);
      assert.equal(res.code, 1, res.stderr);
      assert.equal(res.stderr.trim(), `error: --runtime-config: ${message}`);
    });
  }
});
