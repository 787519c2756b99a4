/**
 * `orch-scheduler`: parses the flags, sets up logging, builds the configuration (exiting 1 with
 * upstream's message on any error, before doing anything else), writes it and exits 0 for
 * `--write-config-to`, otherwise serves its ports and starts the scheduler runtime until SIGTERM
 * or SIGINT.
 */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import type { HealthCheck } from '../machinery/health.js';
import { klog } from '../machinery/klog.js';
import { MetricsRegistry } from '../machinery/metrics.js';
import { registerProcessMetrics } from '../machinery/process-metrics.js';
import { registerSchedulerMetrics } from '../scheduler/metrics.js';
import { componentHandler } from '../serving/component-handler.js';
import { type RunningServer, startInsecureServing } from '../serving/servers.js';
import { hostPort, startComponentSecureServing } from './component-serving.js';
import { normalizeArgs, schedulerCommand } from './scheduler-flags.js';
import { deprecationWarnings, ignoredWithConfig, loggingFromFlags, type SchedulerSetup, schedulerSetup } from './scheduler-options.js';
import { type RunningScheduler, startScheduler } from './scheduler-runtime.js';
import { explainListenError, startupErrorLine } from './startup-errors.js';

/** The configuration file text `--write-config-to` writes (YAML, keys sorted as sigs.k8s.io/yaml writes them). */
export function configurationYaml(setup: SchedulerSetup): string {
  return stringify(setup.completed, { indentSeq: false, sortMapEntries: true, lineWidth: 0 });
}

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

export async function main(argv: readonly string[]): Promise<void> {
  const cmd = schedulerCommand();
  cmd.parse(normalizeArgs(argv), { from: 'user' });
  for (const w of deprecationWarnings(cmd)) process.stderr.write(`${w}\n`);
  try {
    klog.configure(loggingFromFlags(cmd.opts()));
  } catch (e) {
    fail((e as Error).message);
  }
  for (const flag of ignoredWithConfig(cmd)) klog.warning(`--${flag} is ignored because --config is given`);
  let setup: SchedulerSetup;
  try {
    setup = await schedulerSetup(cmd);
  } catch (e) {
    fail((e as Error).message);
  }
  const yaml = configurationYaml(setup);
  // LogOrWriteConfig: the configuration is logged at -v=2, then written when asked.
  klog.v(
    2,
    `Using component config\n-------------------------Configuration File Contents Start Here---------------------- \n${yaml}\n------------------------------------Configuration File Contents End Here---------------------------------\n`,
  );
  if (setup.writeConfigTo) {
    try {
      writeFileSync(setup.writeConfigTo, yaml);
    } catch (e) {
      fail((e as Error).message);
    }
    klog.info('Wrote configuration', { file: setup.writeConfigTo });
    process.exit(0);
  }
  klog.v(1, 'Starting orch scheduler', { version: cmd.version() });
  await run(setup);
}

async function run(setup: SchedulerSetup): Promise<void> {
  const registry = new MetricsRegistry(setup.metrics);
  const metrics = registerSchedulerMetrics(registry);
  registerProcessMetrics(registry);
  let runtime: RunningScheduler | undefined;
  const leaderElect = setup.completed.leaderElection.leaderElect;
  // Upstream: `leaderElection` when leader election is on, otherwise `ping`.
  const checks: HealthCheck[] = leaderElect
    ? [
        {
          name: 'leaderElection',
          check: () => {
            if (runtime && !runtime.healthy()) throw new Error('failed election to renew leadership on lease');
          },
        },
      ]
    : [{ name: 'ping', check: () => {} }];
  const configz = () => ({ componentconfig: setup.completed });
  const endpoints = {
    healthChecks: checks,
    profiling: setup.completed.enableProfiling,
    configz,
    setVerbosity: (v: number) => klog.configure({ ...klog.options, v }),
  };
  const servers: RunningServer[] = [];
  const stopAll = async () => {
    await runtime?.stop();
    await Promise.all(servers.map((s) => s.close()));
    klog.close();
  };
  try {
    if (setup.secure) {
      servers.push(
        await startComponentSecureServing({
          secure: setup.secure,
          authentication: setup.authentication,
          authorization: setup.authorization,
          brand: setup.brand,
          pairName: `${setup.brand.word}-scheduler`,
          handler: componentHandler({ ...endpoints, metrics: registry }),
        }),
      );
    }
    const { healthz, metrics: metricsAddr } = setup.insecure;
    if (healthz) {
      // Metrics ride on the healthz port unless they have an address of their own.
      const handler = componentHandler({ ...endpoints, metrics: metricsAddr ? undefined : registry, configz: metricsAddr ? undefined : configz });
      const server = await startInsecureServing(healthz.host, healthz.port, handler).catch((e) => {
        throw explainListenError(e, { bindAddress: healthz.host, port: healthz.port });
      });
      servers.push(server);
      klog.info(`Serving healthz insecurely on ${hostPort(healthz.host, server.port)}`);
    }
    if (metricsAddr) {
      const handler = componentHandler({ healthChecks: [], profiling: setup.completed.enableProfiling, configz, metrics: registry });
      const server = await startInsecureServing(metricsAddr.host, metricsAddr.port, handler).catch((e) => {
        throw explainListenError(e, { bindAddress: metricsAddr.host, port: metricsAddr.port });
      });
      servers.push(server);
      klog.info(`Serving metrics insecurely on ${hostPort(metricsAddr.host, server.port)}`);
    }
    if (startScheduler) {
      const cc = setup.completed.clientConnection;
      if (!cc.kubeconfig && !setup.master) klog.warning('Neither --kubeconfig nor --master was specified. Using default API client. This might not work.');
      runtime = await startScheduler({
        config: setup.completed,
        configuration: setup.configuration,
        client: {
          kubeconfig: cc.kubeconfig,
          master: setup.master,
          qps: cc.qps,
          burst: cc.burst,
          contentType: cc.contentType,
          acceptContentTypes: cc.acceptContentTypes,
          userAgent: 'scheduler',
        },
        brand: setup.brand,
        metrics,
        registry,
        featureGates: setup.featureGates,
      });
    } else {
      klog.error(undefined, 'this build has no scheduler runtime: serving health, metrics and configz only, no pod is scheduled');
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
