/**
 * orch-scheduler's command line as a user meets it: every flag of the spec's table in --help
 * with its default, --version, --write-config-to round trips through --config, each invalid
 * configuration refused with upstream's message before anything starts, deprecated flags warned
 * about and (but for the policy and insecure-port ones) ignored with --config.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { runScheduler } from './helpers/scheduler-process.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-sched-cli-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, text);
  return p;
}

const HEADER = 'apiVersion: kubescheduler.config.orch.io/v1beta1\nkind: KubeSchedulerConfiguration\n';

/** The spec table's rows: flag and the default --help must show ('' for none). */
const SPEC_FLAGS: [string, string][] = [
  ['--address', '"0.0.0.0"'],
  ['--algorithm-provider', ''],
  ['--allow-metric-labels', '[]'],
  ['--authentication-kubeconfig', ''],
  ['--authentication-skip-lookup', 'false'],
  ['--authentication-token-webhook-cache-ttl', '10s'],
  ['--authentication-tolerate-lookup-failure', 'true'],
  ['--authorization-always-allow-paths', '[/healthz,/readyz,/livez]'],
  ['--authorization-kubeconfig', ''],
  ['--authorization-webhook-cache-authorized-ttl', '10s'],
  ['--authorization-webhook-cache-unauthorized-ttl', '10s'],
  ['--bind-address', '"0.0.0.0"'],
  ['--cert-dir', ''],
  ['--client-ca-file', ''],
  ['--config', ''],
  ['--contention-profiling', 'true'],
  ['--disabled-metrics', '[]'],
  ['--experimental-logging-sanitization', 'false'],
  ['--feature-gates', ''],
  ['--hard-pod-affinity-symmetric-weight', '1'],
  ['--help', ''],
  ['--http2-max-streams-per-connection', '0'],
  ['--orch-api-burst', '100'],
  ['--orch-api-content-type', '"application/vnd.orch.protobuf"'],
  ['--orch-api-qps', '50'],
  ['--kubeconfig', ''],
  ['--leader-elect', 'true'],
  ['--leader-elect-lease-duration', '15s'],
  ['--leader-elect-renew-deadline', '10s'],
  ['--leader-elect-resource-lock', '"leases"'],
  ['--leader-elect-resource-name', '"orch-scheduler"'],
  ['--leader-elect-resource-namespace', '"orch-system"'],
  ['--leader-elect-retry-period', '2s'],
  ['--lock-object-name', '"orch-scheduler"'],
  ['--lock-object-namespace', '"orch-system"'],
  ['--log-backtrace-at', ':0'],
  ['--log-dir', ''],
  ['--log-file', ''],
  ['--log-file-max-size', '1800'],
  ['--log-flush-frequency', '5s'],
  ['--logging-format', '"text"'],
  ['--logtostderr', 'true'],
  ['--alsologtostderr', 'false'],
  ['--add-dir-header', 'false'],
  ['--one-output', 'false'],
  ['--skip-headers', 'false'],
  ['--skip-log-headers', 'false'],
  ['--stderrthreshold', '2'],
  ['--v', '0'],
  ['--vmodule', '[]'],
  ['--master', ''],
  ['--permit-address-sharing', 'false'],
  ['--permit-port-sharing', 'false'],
  ['--policy-config-file', ''],
  ['--policy-configmap', ''],
  ['--policy-configmap-namespace', '"orch-system"'],
  ['--use-legacy-policy-config', 'false'],
  ['--port', '10251'],
  ['--profiling', 'true'],
  ['--scheduler-name', '"default-scheduler"'],
  ['--secure-port', '10259'],
  ['--show-hidden-metrics-for-version', ''],
  ['--tls-cert-file', ''],
  ['--tls-private-key-file', ''],
  ['--tls-cipher-suites', '[]'],
  ['--tls-min-version', ''],
  ['--tls-sni-cert-key', '[]'],
  ['--version', ''],
  ['--write-config-to', ''],
];

describe('--help and --version', () => {
  test('--help lists every flag of the spec table with its default', async () => {
    const r = await runScheduler(['--help']);
    assert.equal(r.code, 0);
    // One entry per flag: commander starts each at two spaces and wraps only the description.
    const entries = r.stdout.split(/\n(?= {2}-)/);
    for (const [flag, def] of SPEC_FLAGS) {
      const entry = entries.find((e) => new RegExp(`^ {2}(-\\w, )?${flag}(?=[ ,])`).test(e.trimEnd().replace(/^\n/, '')));
      assert.ok(entry, `--help lists ${flag}`);
      if (def !== '')
        assert.match(entry.replace(/\s+/g, ' '), new RegExp(`[(, ]default: ${def.replace(/[[\]().*+?^$|\\/]/g, '\\$&')}\\)`), `${flag} shows default ${def}`);
    }
    assert.match(r.stdout, /-v, --v <int>/);
  });

  test('--version prints the version and exits 0', async () => {
    const r = await runScheduler(['--version']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^orch v\d+\.\d+\.\d+/);
  });
});

describe('logging', () => {
  test('--logging-format=json writes JSON lines with ts, caller, msg, v and the key/values on standard output', async () => {
    const out = join(dir, 'json-log.yaml');
    const r = await runScheduler(['--logging-format=json', '--write-config-to', out]);
    assert.equal(r.code, 0, r.stderr);
    const line = JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '');
    assert.deepEqual(Object.keys(line), ['ts', 'caller', 'msg', 'v', 'file']);
    assert.equal(line.msg, 'Wrote configuration');
    assert.equal(line.file, out);
  });

  test("text lines have klog's header; --log-file collects them when not logging to stderr", async () => {
    const log = join(dir, 'sched.log');
    const r = await runScheduler(['--logtostderr=false', `--log-file=${log}`, '--write-config-to', join(dir, 'l.yaml')]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Wrote configuration/);
    const text = await readFile(log, 'utf8');
    assert.match(text, /^I\d{4} \d{2}:\d{2}:\d{2}\.\d{6} +\d+ orch-scheduler-main\.js:\d+\] "Wrote configuration" file=".*l\.yaml"$/m);
  });

  test('an unknown --logging-format is refused', async () => {
    const r = await runScheduler(['--logging-format=xml', '--write-config-to', join(dir, 'x.yaml')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /unsupported log format: xml/);
  });
});

describe('configuration file', () => {
  test('--write-config-to writes every default, exits 0, and loads back to the same configuration', async () => {
    const out = join(dir, 'written.yaml');
    const r = await runScheduler(['--write-config-to', out, '--leader-elect-lease-duration=20s', '--scheduler-name=mine']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /"Wrote configuration" file=".*written\.yaml"/);
    const cfg = parse(await readFile(out, 'utf8'));
    assert.equal(cfg.apiVersion, 'kubescheduler.config.orch.io/v1beta1');
    assert.equal(cfg.kind, 'KubeSchedulerConfiguration');
    assert.equal(cfg.parallelism, 16);
    assert.deepEqual(cfg.leaderElection, {
      leaderElect: true,
      leaseDuration: '20s',
      renewDeadline: '10s',
      retryPeriod: '2s',
      resourceLock: 'leases',
      resourceName: 'orch-scheduler',
      resourceNamespace: 'orch-system',
    });
    assert.deepEqual(cfg.clientConnection, { acceptContentTypes: '', burst: 100, contentType: 'application/vnd.orch.protobuf', kubeconfig: '', qps: 50 });
    assert.equal(cfg.healthzBindAddress, '0.0.0.0:10251');
    assert.equal(cfg.enableProfiling, true);
    assert.equal(cfg.enableContentionProfiling, true);
    assert.equal(cfg.podMaxBackoffSeconds, 10);
    assert.equal(cfg.profiles[0].schedulerName, 'mine');
    assert.deepEqual(cfg.profiles[0].plugins.queueSort, { enabled: [{ name: 'PrioritySort', weight: 0 }], disabled: [{ name: '*', weight: 0 }] });
    const preemption = cfg.profiles[0].pluginConfig.find((p: { name: string }) => p.name === 'DefaultPreemption');
    assert.deepEqual(preemption.args, {
      apiVersion: 'kubescheduler.config.orch.io/v1beta1',
      kind: 'DefaultPreemptionArgs',
      minCandidateNodesAbsolute: 100,
      minCandidateNodesPercentage: 10,
    });
    const again = join(dir, 'again.yaml');
    const r2 = await runScheduler(['--config', out, '--write-config-to', again]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.equal(await readFile(again, 'utf8'), await readFile(out, 'utf8'));
  });

  test('--kubernetes-compat reads and writes kubescheduler.config.k8s.io with kube-system names', async () => {
    const out = join(dir, 'compat.yaml');
    const r = await runScheduler(['--kubernetes-compat', '--write-config-to', out]);
    assert.equal(r.code, 0, r.stderr);
    const cfg = parse(await readFile(out, 'utf8'));
    assert.equal(cfg.apiVersion, 'kubescheduler.config.k8s.io/v1beta1');
    assert.equal(cfg.leaderElection.resourceName, 'kube-scheduler');
    assert.equal(cfg.leaderElection.resourceNamespace, 'kube-system');
    assert.equal(cfg.clientConnection.contentType, 'application/vnd.kubernetes.protobuf');
  });

  const invalid: [string, string, string | RegExp][] = [
    [
      'an unknown field',
      `${HEADER}foo: 1\n`,
      /: v1beta1\.KubeSchedulerConfiguration\.ReadObject: found unknown field: foo, error found in #10 byte of \.\.\.\|a1","foo":\|\.\.\., bigger context/,
    ],
    [
      'an unknown nested field',
      `${HEADER}profiles:\n- schedulerName: a\n  plugins:\n    filter:\n      enabled:\n      - name: X\n        bogus: 2\n`,
      /v1beta1\.KubeSchedulerConfiguration\.Profiles: \[\]v1beta1\.KubeSchedulerProfile: v1beta1\.KubeSchedulerProfile\.Plugins: v1beta1\.Plugins\.Filter: v1beta1\.PluginSet\.Enabled: \[\]v1beta1\.Plugin: v1beta1\.Plugin\.ReadObject: found unknown field: bogus/,
    ],
    ['a field in the wrong case', `${HEADER}Parallelism: 4\n`, /found unknown field: Parallelism/],
    ['two profiles with the same name', `${HEADER}profiles:\n- schedulerName: a\n- schedulerName: a\n`, 'profiles[1].schedulerName: Duplicate value: "a"'],
    [
      'profiles with different queue sorts',
      `${HEADER}profiles:\n- schedulerName: a\n- schedulerName: b\n  plugins:\n    queueSort:\n      disabled:\n      - name: '*'\n      enabled:\n      - name: Other\n`,
      'profiles[1].plugins.queueSort: Invalid value: config.PluginSet{Enabled:[]config.Plugin{config.Plugin{Name:"Other", Weight:0}}, Disabled:[]config.Plugin{config.Plugin{Name:"*", Weight:0}}}: has to match for all profiles',
    ],
    ['a profile without a name among several', `${HEADER}profiles:\n- schedulerName: a\n- {}\n`, 'profiles[1].schedulerName: Required value'],
    ['parallelism 0', `${HEADER}parallelism: 0\n`, 'parallelism: Invalid value: 0: should be an integer value greater than zero'],
    ['percentageOfNodesToScore 101', `${HEADER}percentageOfNodesToScore: 101\n`, 'percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]'],
    ['podInitialBackoffSeconds 0', `${HEADER}podInitialBackoffSeconds: 0\n`, 'podInitialBackoffSeconds: Invalid value: 0: must be greater than 0'],
    [
      'podMaxBackoffSeconds below the initial',
      `${HEADER}podInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n`,
      'podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds',
    ],
    [
      'a lease not longer than the renew deadline',
      `${HEADER}leaderElection:\n  leaseDuration: 10s\n  renewDeadline: 10s\n`,
      'leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline',
    ],
    ['a negative burst', `${HEADER}clientConnection:\n  burst: -1\n`, 'clientConnection.burst: Invalid value: -1: must be non-negative'],
    [
      'a bad healthz address',
      `${HEADER}healthzBindAddress: 0.0.0.0:99999\n`,
      'healthzBindAddress: Invalid value: "0.0.0.0:99999": must be between 1 and 65535, inclusive',
    ],
    [
      'a duplicate pluginConfig',
      `${HEADER}profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: VolumeBinding\n  - name: VolumeBinding\n`,
      'profiles[0].pluginConfig[1]: Duplicate value: "VolumeBinding"',
    ],
    [
      'a bad plugin argument',
      `${HEADER}profiles:\n- schedulerName: a\n  pluginConfig:\n  - name: DefaultPreemption\n    args:\n      minCandidateNodesPercentage: 200\n`,
      'minCandidateNodesPercentage: Invalid value: 200: not in valid range [0, 100]',
    ],
    [
      'two binding extenders',
      `${HEADER}extenders:\n- urlPrefix: http://a\n  bindVerb: bind\n- urlPrefix: http://b\n  bindVerb: bind\n`,
      'extenders: Invalid value: "found 2 extenders implementing bind": only one extender can implement bind',
    ],
    [
      'a value of the wrong type',
      `${HEADER}parallelism: many\n`,
      'json: cannot unmarshal string into Go struct field KubeSchedulerConfiguration.parallelism of type int32',
    ],
    [
      'another group',
      'apiVersion: kubescheduler.config.k8s.io/v1beta1\nkind: KubeSchedulerConfiguration\n',
      'no kind "KubeSchedulerConfiguration" is registered for version "kubescheduler.config.k8s.io/v1beta1"',
    ],
    ['no kind', 'apiVersion: kubescheduler.config.orch.io/v1beta1\n', `Object 'Kind' is missing in '{"apiVersion":"kubescheduler.config.orch.io/v1beta1"}'`],
  ];
  for (const [what, text, message] of invalid) {
    test(`${what} is refused with upstream's message, exit 1, nothing served`, async () => {
      const cfg = await file(`bad-${what.replace(/\W+/g, '-')}.yaml`, text);
      // A port that would be served if start-up went on: the process must exit first.
      const r = await runScheduler(['--config', cfg, '--secure-port', '0', '--port', '0']);
      assert.equal(r.code, 1);
      if (typeof message === 'string') assert.ok(r.stderr.includes(message), `stderr has ${message}: ${r.stderr}`);
      else assert.match(r.stderr, message);
      assert.doesNotMatch(r.stderr, /Serving/);
    });
  }

  test('several problems are reported together, as upstream aggregates them', async () => {
    const cfg = await file('several.yaml', `${HEADER}parallelism: 0\npercentageOfNodesToScore: 101\n`);
    const r = await runScheduler(['--config', cfg]);
    assert.equal(r.code, 1);
    assert.ok(
      r.stderr.includes(
        '[parallelism: Invalid value: 0: should be an integer value greater than zero, percentageOfNodesToScore: Invalid value: 101: not in valid range [0-100]]',
      ),
      r.stderr,
    );
  });

  test('flag values are validated without --config too', async () => {
    const r = await runScheduler(['--leader-elect-lease-duration=5s', '--leader-elect-renew-deadline=10s', '--write-config-to', join(dir, 'x.yaml')]);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes('leaderElection.leaseDuration: Invalid value: 10s: LeaseDuration must be greater than RenewDeadline'), r.stderr);
    const hidden = await runScheduler(['--show-hidden-metrics-for-version=1.5', '--write-config-to', join(dir, 'x.yaml')]);
    assert.equal(hidden.code, 1);
    assert.ok(hidden.stderr.includes("--show-hidden-metrics-for-version must be omitted or have the value '1.20'. Only the previous minor version is allowed"));
    const cipher = await runScheduler(['--tls-cipher-suites=TLS_BOGUS', '--write-config-to', join(dir, 'x.yaml')]);
    assert.equal(cipher.code, 1);
    assert.ok(cipher.stderr.includes("Cipher suite TLS_BOGUS not supported or doesn't exist"));
  });
});

describe('deprecated flags', () => {
  const deprecated: [string, string, (cfg: any) => unknown, unknown][] = [
    ['--kubeconfig=/some/kubeconfig', 'kubeconfig', (c) => c.clientConnection.kubeconfig, '/some/kubeconfig'],
    ['--orch-api-qps=7', 'orch-api-qps', (c) => c.clientConnection.qps, 7],
    ['--orch-api-burst=9', 'orch-api-burst', (c) => c.clientConnection.burst, 9],
    ['--orch-api-content-type=application/json', 'orch-api-content-type', (c) => c.clientConnection.contentType, 'application/json'],
    ['--lock-object-name=mylock', 'lock-object-name', (c) => c.leaderElection.resourceName, 'mylock'],
    ['--lock-object-namespace=myns', 'lock-object-namespace', (c) => c.leaderElection.resourceNamespace, 'myns'],
    ['--scheduler-name=other', 'scheduler-name', (c) => c.profiles[0].schedulerName, 'other'],
    ['--profiling=false', 'profiling', (c) => c.enableProfiling, false],
    ['--contention-profiling=false', 'contention-profiling', (c) => c.enableContentionProfiling, false],
    [
      '--hard-pod-affinity-symmetric-weight=5',
      'hard-pod-affinity-symmetric-weight',
      (c) => c.profiles[0].pluginConfig.find((p: { name: string }) => p.name === 'InterPodAffinity').args.hardPodAffinityWeight,
      5,
    ],
  ];
  for (const [arg, flag, read, value] of deprecated) {
    test(`${flag} warns, applies without --config and is ignored with it`, async () => {
      const out = join(dir, `dep-${flag}.yaml`);
      const r = await runScheduler([arg, '--write-config-to', out]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, new RegExp(`Flag --${flag} has been deprecated, `));
      assert.deepEqual(read(parse(await readFile(out, 'utf8'))), value);
      const cfg = await file(`dep-${flag}-config.yaml`, HEADER);
      const withConfig = join(dir, `dep-${flag}-with-config.yaml`);
      const r2 = await runScheduler(['--config', cfg, arg, '--write-config-to', withConfig]);
      assert.equal(r2.code, 0, r2.stderr);
      assert.match(r2.stderr, new RegExp(`Flag --${flag} has been deprecated, `));
      assert.match(r2.stderr, new RegExp(`--${flag} is ignored because --config is given`));
      assert.notDeepEqual(read(parse(await readFile(withConfig, 'utf8'))), value);
    });
  }

  test('--port and --address set the insecure address without --config and are ignored with it (the spec)', async () => {
    const out = join(dir, 'insecure-flags.yaml');
    const r = await runScheduler(['--address=127.0.0.1', '--port=10999', '--write-config-to', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Flag --port has been deprecated, /);
    assert.equal(parse(await readFile(out, 'utf8')).healthzBindAddress, '127.0.0.1:10999');
    const cfg = await file('insecure.yaml', HEADER);
    const withConfig = join(dir, 'insecure-out.yaml');
    const r2 = await runScheduler(['--config', cfg, '--address=127.0.0.1', '--port=10999', '--write-config-to', withConfig]);
    assert.equal(r2.code, 0, r2.stderr);
    assert.match(r2.stderr, /--port is ignored because --config is given/);
    const written = parse(await readFile(withConfig, 'utf8'));
    assert.equal(written.healthzBindAddress, '0.0.0.0:10251');
    assert.equal(written.metricsBindAddress, '0.0.0.0:10251');
  });

  test('--algorithm-provider applies with --config: ClusterAutoscalerProvider packs nodes', async () => {
    const cfg = await file('provider.yaml', HEADER);
    const out = join(dir, 'provider-out.yaml');
    const r = await runScheduler(['--config', cfg, '--algorithm-provider=ClusterAutoscalerProvider', '--write-config-to', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /Flag --algorithm-provider has been deprecated, /);
    const score = parse(await readFile(out, 'utf8')).profiles[0].plugins.score.enabled.map((p: { name: string }) => p.name);
    assert.ok(score.includes('NodeResourcesMostAllocated'));
    assert.ok(!score.includes('NodeResourcesLeastAllocated'));
    const bad = await runScheduler(['--algorithm-provider=Nope', '--write-config-to', out]);
    assert.equal(bad.code, 1);
    assert.ok(bad.stderr.includes('algorithm provider "Nope" is not registered'));
  });

  test('--policy-config-file is translated to plugins as 1.21 did', async () => {
    const policy = await file(
      'policy.json',
      JSON.stringify({
        kind: 'Policy',
        apiVersion: 'v1',
        predicates: [{ name: 'PodFitsResources' }, { name: 'MatchNodeSelector' }],
        priorities: [
          { name: 'LeastRequestedPriority', weight: 2 },
          { name: 'EqualPriority', weight: 1 },
        ],
      }),
    );
    const out = join(dir, 'policy-out.yaml');
    const r = await runScheduler(['--policy-config-file', policy, '--write-config-to', out]);
    assert.equal(r.code, 0, r.stderr);
    const plugins = parse(await readFile(out, 'utf8')).profiles[0].plugins;
    const names = (ep: string) => (plugins[ep].enabled ?? []).map((p: { name: string; weight: number }) => `${p.name}:${p.weight}`);
    assert.deepEqual(names('filter'), ['NodeUnschedulable:0', 'NodeAffinity:0', 'NodeResourcesFit:0', 'TaintToleration:0']);
    assert.deepEqual(names('preFilter'), ['NodeAffinity:0', 'NodeResourcesFit:0']);
    assert.deepEqual(names('score'), ['NodeResourcesLeastAllocated:2']);
    assert.deepEqual(names('queueSort'), ['PrioritySort:0']);
    assert.deepEqual(names('bind'), ['DefaultBinder:0']);
  });

  test('a Policy next to profile plugins fails as the spec says', async () => {
    const policy = await file('policy2.json', JSON.stringify({ kind: 'Policy', apiVersion: 'v1' }));
    const cfg = await file('with-plugins.yaml', `${HEADER}profiles:\n- schedulerName: a\n  plugins:\n    score:\n      enabled:\n      - name: NodeLabel\n`);
    const r = await runScheduler(['--config', cfg, '--policy-config-file', policy]);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes('cannot set a Plugin config and Policy config'), r.stderr);
  });

  test('an unknown predicate in a policy is refused', async () => {
    const policy = await file('policy3.json', JSON.stringify({ kind: 'Policy', apiVersion: 'v1', predicates: [{ name: 'Nope' }] }));
    const r = await runScheduler(['--policy-config-file', policy, '--write-config-to', join(dir, 'p3.yaml')]);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.includes('predicate type not found for "Nope"'), r.stderr);
  });
});
