/**
 * API Priority and Fairness in the server's start-up: whether it is on (the APIPriorityAndFairness
 * gate and --enable-priority-and-fairness, both needed, as upstream), its limits from the
 * in-flight flags and the request timeout, and upstream's three post-start hooks.
 */
import type { MetricsRegistry } from '../../machinery/metrics.js';
import type { Registry } from '../../registry/registry.js';
import type { InFlightLimits } from '../filters/max-in-flight.js';
import { hookCheck } from '../health.js';
import { startConfigProducer } from './config-producer.js';
import { FlowControl } from './controller.js';
import { registerFlowControlMetrics } from './metrics.js';

/** Upstream's wait limit when there is no request timeout to take a quarter of (a quarter of the default minute). */
const DEFAULT_REQUEST_WAIT_LIMIT_MS = 15_000;

export interface FlowControlSettings {
  inFlight: InFlightLimits;
  /** --request-timeout in ms (0: none). */
  requestTimeoutMs: number;
  metrics?: MetricsRegistry;
}

export interface FlowControlSetup {
  flowControl: FlowControl;
  hooks: ReturnType<typeof hookCheck>[];
  /** Runs the post-start hooks: the configuration ensured, then digested and served. */
  start(): Promise<void>;
  stop(): void;
}

/** Upstream's BuildPriorityAndFairness check: APF shares out the sum of both in-flight limits, so it must be positive. */
export function validateFlowControlLimits(inFlight: InFlightLimits): void {
  if (inFlight.maxRequestsInflight + inFlight.maxMutatingRequestsInflight <= 0) {
    throw new Error(
      `invalid configuration: MaxRequestsInFlight=${inFlight.maxRequestsInflight} and MaxMutatingRequestsInFlight=${inFlight.maxMutatingRequestsInflight}; they must add up to something positive`,
    );
  }
}

export function setUpFlowControl(registry: Registry, settings: FlowControlSettings): FlowControlSetup {
  validateFlowControlLimits(settings.inFlight);
  const flowControl = new FlowControl(registry, {
    serverConcurrencyLimit: settings.inFlight.maxRequestsInflight + settings.inFlight.maxMutatingRequestsInflight,
    // Upstream passes RequestTimeout/4 as the queue wait limit.
    requestWaitLimitMs: settings.requestTimeoutMs > 0 ? settings.requestTimeoutMs / 4 : DEFAULT_REQUEST_WAIT_LIMIT_MS,
    metrics: settings.metrics ? registerFlowControlMetrics(settings.metrics) : undefined,
  });
  const producer = hookCheck('poststarthook/priority-and-fairness-config-producer');
  const consumer = hookCheck('poststarthook/priority-and-fairness-config-consumer');
  const filter = hookCheck('poststarthook/priority-and-fairness-filter');
  let stopProducer = () => {};
  return {
    flowControl,
    hooks: [consumer, filter, producer],
    async start() {
      // The filter serves from the first request (with the imagined mandatory levels until the digest).
      filter.done();
      flowControl.start();
      consumer.done();
      stopProducer = await startConfigProducer(registry);
      producer.done();
    },
    stop() {
      stopProducer();
      flowControl.stop();
    },
  };
}
