/**
 * `orch-controller-manager`: parses the flags and checks them (exiting 1 with upstream's
 * message), serves /healthz and /metrics on the secure port, then runs the selected controllers
 * — once this process holds the leader lease `<system-namespace>/<brand>-controller-manager`
 * when --leader-elect is on. Losing the lease exits 1, as upstream, so that a supervisor
 * restarts it as a follower. SIGTERM and SIGINT stop it.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { LeaderElector, validateLeaderElection } from '../client/leader-election.js';
import { RestClient } from '../client/rest-client.js';
import { newResourceLock, type ResourceLockType } from '../client/resource-lock.js';
import { type RunningControllers, startControllers } from '../controllers/controller-manager.js';
import { validateControllerSelection } from '../controllers/controller-table.js';
import { controllerTableWithCertificates } from './certificate-controllers.js';
import { type Brand, brandFor } from '../machinery/brand.js';
import type { HealthCheck } from '../machinery/health.js';
import { klog } from '../machinery/klog.js';
import { MetricsRegistry, validateShowHiddenMetricsVersion } from '../machinery/metrics.js';
import { registerProcessMetrics } from '../machinery/process-metrics.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';
import { componentHandler } from '../serving/component-handler.js';
import type { RunningServer } from '../serving/servers.js';
import { authenticationFrom, authorizationFrom, secureServingFrom, startComponentSecureServing, validateServingFlags } from './component-serving.js';
import { CONCURRENCY_FLAGS, type ControllerManagerFlags, concurrencyKey, controllerManagerCommand } from './controller-manager-flags.js';
import { normalizeArgs } from './component-flags.js';
import { given, loggingFromFlags } from './scheduler-options.js';
import { startupErrorLine } from './startup-errors.js';

/** The release whose hidden metrics --show-hidden-metrics-for-version may name. */
const RELEASE = { major: 1, minor: 25 };
const EXIT_ON_LOST_LEASE = 1;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function readFile(flag: string, path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`--${flag}: cannot read ${path}: ${(e as Error).message}`);
  }
}

/** KubeControllerManagerOptions.Validate's checks of the flags, in upstream's words. */
function validate(f: ControllerManagerFlags): string[] {
  const errs = validateServingFlags(f);
  const selection = validateControllerSelection(f.controllers, controllerTableWithCertificates());
  if (selection) errs.push(selection);
  const hidden = validateShowHiddenMetricsVersion(RELEASE, f.showHiddenMetricsForVersion);
  if (hidden) errs.push(hidden);
  if (f.leaderElect) {
    const le = validateLeaderElection({
      leaseDurationMs: f.leaderElectLeaseDuration,
      renewDeadlineMs: f.leaderElectRenewDeadline,
      retryPeriodMs: f.leaderElectRetryPeriod,
      identity: 'x',
    });
    if (le) errs.push(le);
  }
  return errs;
}

/** The manager's own client from --kubeconfig (client certificate or bearer token) and --master. */
function managerClient(f: ControllerManagerFlags): { client: RestClient; caPem: string } {
  if (!f.kubeconfig) throw new Error('orch-controller-manager needs --kubeconfig naming the API server and its credentials');
  const conn = readKubeconfig(f.kubeconfig);
  if (!conn.caPem) throw new Error(`${f.kubeconfig}: no certificate-authority for the API server`);
  const token = conn.token;
  if (!(conn.certPem && conn.keyPem) && !token) throw new Error(`${f.kubeconfig}: no client certificate or token`);
  const client = new RestClient({
    server: f.master || conn.server,
    caPem: conn.caPem,
    ...(conn.certPem && conn.keyPem ? { certPem: conn.certPem, keyPem: conn.keyPem } : { bearerToken: () => token ?? '' }),
    userAgent: 'orch-controller-manager',
    qps: f.kubeApiQps ?? f.orchApiQps,
    burst: f.kubeApiBurst ?? f.orchApiBurst,
    contentType: f.kubeApiContentType ?? f.orchApiContentType,
  });
  return { client, caPem: conn.caPem };
}

export async function main(argv: readonly string[]): Promise<void> {
  const cmd = controllerManagerCommand();
  cmd.parse(normalizeArgs(argv), { from: 'user' });
  const f = cmd.opts() as ControllerManagerFlags;
  try {
    klog.configure(loggingFromFlags(f, 'orch-controller-manager'));
  } catch (e) {
    fail((e as Error).message);
  }
  const errs = validate(f);
  if (errs.length > 0) fail(errs.length === 1 ? errs[0] : `[${errs.join(', ')}]`);
  const brand = brandFor(f.kubernetesCompat);
  klog.v(1, 'Starting orch controller manager', { version: cmd.version() });
  await run(cmd.opts() as ControllerManagerFlags, brand, {
    name: given(cmd, 'leader-elect-resource-name') ? f.leaderElectResourceName : `${brand.word}-controller-manager`,
    namespace: given(cmd, 'leader-elect-resource-namespace') ? f.leaderElectResourceNamespace : brand.systemNamespace,
  });
}

async function run(f: ControllerManagerFlags, brand: Brand, lease: { name: string; namespace: string }): Promise<void> {
  const registry = new MetricsRegistry({
    currentVersion: RELEASE,
    showHiddenMetricsForVersion: f.showHiddenMetricsForVersion,
    disabledMetrics: f.disabledMetrics,
    allowListedLabels: f.allowMetricLabels,
  });
  registerProcessMetrics(registry);
  const servers: RunningServer[] = [];
  let controllers: RunningControllers | undefined;
  let elector: LeaderElector | undefined;
  let client: RestClient | undefined;
  let stopped = false;
  // The client's timers (leader-election retries, backoffs) do not hold the process open, and
  // with --secure-port=0 nothing else may: the process runs until it is told to stop.
  const keepAlive = setInterval(() => {}, 2 ** 30);
  const stopAll = async () => {
    stopped = true;
    clearInterval(keepAlive);
    await elector?.stop();
    await controllers?.stop();
    client?.close();
    await Promise.all(servers.map((s) => s.close()));
    klog.close();
  };
  try {
    const manager = managerClient(f);
    client = manager.client;
    const rootCaPem = readFile('root-ca-file', f.rootCaFile) ?? manager.caPem;
    const signingCert = readFile('cluster-signing-cert-file', f.clusterSigningCertFile);
    const signingKey = readFile('cluster-signing-key-file', f.clusterSigningKeyFile);
    const serviceAccountPrivateKeyPem = readFile('service-account-private-key-file', f.serviceAccountPrivateKeyFile);
    // Upstream's healthz: `leaderElection` when leader election is on (the elector's own check).
    const checks: HealthCheck[] = [
      { name: 'ping', check: () => {} },
      ...(f.leaderElect
        ? [
            {
              name: 'leaderElection',
              check: () => {
                const e = elector?.check();
                if (e) throw e;
              },
            },
          ]
        : []),
    ];
    const secure = secureServingFrom(f);
    if (secure) {
      servers.push(
        await startComponentSecureServing({
          secure,
          authentication: authenticationFrom(f),
          authorization: authorizationFrom(f),
          brand,
          pairName: `${brand.word}-controller-manager`,
          handler: componentHandler({
            healthChecks: checks,
            profiling: f.profiling,
            metrics: registry,
            setVerbosity: (v: number) => klog.configure({ ...klog.options, v }),
          }),
        }),
      );
    }
    const concurrency = new Map(CONCURRENCY_FLAGS.map(([stem]) => [stem, f[concurrencyKey(stem)]]));
    const run = async () => {
      controllers = await startControllers({
        client: manager.client,
        brand,
        controllers: f.controllers,
        useServiceAccountCredentials: f.useServiceAccountCredentials,
        rootCaPem,
        serviceAccountPrivateKeyPem,
        table: controllerTableWithCertificates(),
        clusterSigning: signingCert && signingKey ? { certPem: signingCert, keyPem: signingKey, keyFile: f.clusterSigningKeyFile } : undefined,
        concurrency,
        userAgent: 'orch-controller-manager',
        log: (level, message) => (level === 'error' ? klog.error(undefined, message) : klog.info(message)),
      });
      if (stopped) await controllers.stop();
    };
    if (!f.leaderElect) await run();
    else {
      const identity = `${hostname()}_${randomUUID()}`;
      const lock = newResourceLock(f.leaderElectResourceLock as ResourceLockType, manager.client, brand, lease.namespace, lease.name, identity);
      let leading = false;
      elector = new LeaderElector({
        lock,
        identity,
        leaseDurationMs: f.leaderElectLeaseDuration,
        renewDeadlineMs: f.leaderElectRenewDeadline,
        retryPeriodMs: f.leaderElectRetryPeriod,
        onError: (err) => klog.error(undefined, `leader election: ${String(err)}`),
        callbacks: {
          onStartedLeading: () => {
            leading = true;
            klog.info(`${identity} became leader`);
            run().catch((err) => {
              klog.error(undefined, startupErrorLine(err));
              process.exit(1);
            });
          },
          onStoppedLeading: () => {
            if (stopped || !leading) return;
            klog.error(undefined, 'leaderelection lost');
            process.exit(EXIT_ON_LOST_LEASE);
          },
          onNewLeader: (id) => {
            if (id !== identity) klog.info(`new leader elected: ${id}`);
          },
        },
      });
      klog.info(`attempting to acquire leader lease ${lease.namespace}/${lease.name}...`);
      void elector.run();
    }
  } catch (e) {
    await stopAll().catch(() => {});
    fail(startupErrorLine(e));
  }
  const stop = (signal: string) => {
    klog.info(`${signal} received, shutting down`);
    stopAll().then(
      () => process.exit(0),
      (e) => fail(startupErrorLine(e)),
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}
