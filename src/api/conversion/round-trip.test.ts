/**
 * Every multi-version kind round-trips: random objects of the storage version (shaped as
 * upstream's fuzzers shape them: only what some version can say) go through each other version
 * and back unchanged, under either brand; and objects of each version come back from storage.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { ALL_RESOURCES } from '../catalogue.js';
import type { KindConversion } from './kind-conversion.js';
import { horizontalPodAutoscalerConversion } from '../autoscaling/horizontalpodautoscalers.js';

/** A small seeded generator (mulberry32), so a failure names a seed that reproduces it. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = <T>(xs: readonly T[]): T => xs[int(0, xs.length - 1)];
  const maybe = <T>(f: () => T): T | undefined => (next() < 0.5 ? f() : undefined);
  const word = () => pick(['a', 'web', 'qps', 'queue-depth', 'x1', 'packets-per-second', 'b<c&d>']) + int(0, 99);
  const quantity = () => pick(['1', '100m', '2k', '1500Mi', '0.5', '3']);
  return { next, int, pick, maybe, word, quantity };
}

type Gen = ReturnType<typeof random>;

function compact(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

const selector = (g: Gen) => g.maybe(() => ({ matchLabels: { [g.word()]: g.word() } }));
const identifier = (g: Gen) => compact({ name: g.word(), selector: selector(g) });
const reference = (g: Gen) => compact({ kind: g.pick(['Deployment', 'Ingress']), name: g.word(), apiVersion: g.maybe(() => 'apps/v1') });

/** A metric other than the CPU utilization target, with a target v1's annotation can carry. */
function otherMetric(g: Gen): Obj {
  switch (g.int(0, 4)) {
    case 0:
      return { type: 'Pods', pods: { metric: identifier(g), target: { type: 'AverageValue', averageValue: g.quantity() } } };
    case 1: {
      const target = g.next() < 0.5 ? { type: 'Value', value: g.quantity() } : { type: 'AverageValue', value: g.quantity(), averageValue: g.quantity() };
      return { type: 'Object', object: { describedObject: reference(g), target, metric: identifier(g) } };
    }
    case 2: {
      const target =
        g.next() < 0.5
          ? compact({ type: 'Value', value: g.quantity(), averageValue: g.maybe(g.quantity) })
          : { type: 'AverageValue', averageValue: g.quantity() };
      return { type: 'External', external: { metric: identifier(g), target } };
    }
    case 3:
      return { type: 'Resource', resource: { name: g.pick(['memory', 'cpu']), target: { type: 'AverageValue', averageValue: g.quantity() } } };
    default: {
      const target =
        g.next() < 0.5
          ? compact({ type: 'Utilization', averageValue: g.maybe(g.quantity), averageUtilization: g.int(1, 100) })
          : { type: 'AverageValue', averageValue: g.quantity() };
      return { type: 'ContainerResource', containerResource: { name: g.pick(['cpu', 'memory']), target, container: g.word() } };
    }
  }
}

function metricStatus(g: Gen): Obj {
  switch (g.int(0, 4)) {
    case 0:
      return { type: 'Pods', pods: { metric: identifier(g), current: { averageValue: g.quantity() } } };
    case 1:
      return {
        type: 'Object',
        object: { metric: identifier(g), current: compact({ value: g.quantity(), averageValue: g.maybe(g.quantity) }), describedObject: reference(g) },
      };
    case 2:
      return { type: 'External', external: { metric: identifier(g), current: compact({ value: g.quantity(), averageValue: g.maybe(g.quantity) }) } };
    case 3:
      return {
        type: 'Resource',
        resource: { name: g.pick(['cpu', 'memory']), current: compact({ averageValue: g.quantity(), averageUtilization: g.maybe(() => g.int(0, 300)) }) },
      };
    default:
      return {
        type: 'ContainerResource',
        containerResource: {
          name: 'cpu',
          current: compact({ averageValue: g.quantity(), averageUtilization: g.maybe(() => g.int(0, 300)) }),
          container: g.word(),
        },
      };
  }
}

function rules(g: Gen, up: boolean): Obj {
  return compact({
    stabilizationWindowSeconds: up || g.next() < 0.5 ? g.int(0, 3600) : undefined,
    selectPolicy: g.pick(['Max', 'Min', 'Disabled']),
    policies: Array.from({ length: g.int(1, 3) }, () => ({ type: g.pick(['Pods', 'Percent']), value: g.int(1, 100), periodSeconds: g.int(1, 1800) })),
  });
}

/** A defaulted v2 HorizontalPodAutoscaler: the CPU utilization target, if any, last (as upstream's fuzzer puts it). */
function randomV2(g: Gen, apiVersion: string): Obj {
  const metrics = Array.from({ length: g.int(0, 3) }, () => otherMetric(g));
  if (metrics.length === 0 || g.next() < 0.5)
    metrics.push({ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: g.int(1, 100) } } });
  const currentMetrics = Array.from({ length: g.int(0, 3) }, () => metricStatus(g));
  const conditions = Array.from({ length: g.int(0, 2) }, () =>
    compact({
      type: g.pick(['AbleToScale', 'ScalingActive']),
      status: g.pick(['True', 'False']),
      lastTransitionTime: '2024-01-02T03:04:05Z',
      reason: g.maybe(g.word),
      message: g.maybe(g.word),
    }),
  );
  const annotations = g.maybe(() => ({ [g.word()]: g.word() }));
  return {
    apiVersion,
    kind: 'HorizontalPodAutoscaler',
    metadata: compact({ name: g.word(), namespace: 'default', uid: 'u-1', labels: g.maybe(() => ({ app: g.word() })), annotations }),
    spec: compact({
      scaleTargetRef: reference(g),
      minReplicas: g.int(1, 5),
      maxReplicas: g.int(5, 50),
      metrics,
      behavior: g.maybe(() => ({ scaleUp: rules(g, true), scaleDown: rules(g, false) })),
    }),
    status: compact({
      observedGeneration: g.maybe(() => g.int(1, 9)),
      lastScaleTime: g.maybe(() => '2024-01-02T03:04:05Z'),
      currentReplicas: g.maybe(() => g.int(1, 9)),
      desiredReplicas: g.int(0, 9),
      currentMetrics: currentMetrics.length ? currentMetrics : undefined,
      conditions: conditions.length ? conditions : undefined,
    }),
  };
}

/** Any JSON object of flowcontrol's (v1beta1 and v1beta2 have the same fields). */
function randomFlowcontrol(g: Gen, kind: string, apiVersion: string): Obj {
  return {
    apiVersion,
    kind,
    metadata: { name: g.word(), generation: g.int(1, 5) },
    spec: {
      matchingPrecedence: g.int(1, 10000),
      priorityLevelConfiguration: { name: g.word() },
      rules: [{ subjects: [{ kind: 'Group', group: { name: g.word() } }] }],
    },
    status: { conditions: [{ type: 'Dangling', status: g.pick(['True', 'False']) }] },
  };
}

const CONVERSIONS: ReadonlyMap<KindConversion, (g: Gen, apiVersion: string) => Obj> = new Map(
  [...new Set(ALL_RESOURCES.map((d) => d.kindConversion).filter((kc): kc is KindConversion => kc !== undefined))].map((kc) => [
    kc,
    kc === horizontalPodAutoscalerConversion ? randomV2 : (g: Gen, v: string) => randomFlowcontrol(g, kc.kind, v),
  ]),
);

describe('version round trips', () => {
  it('covers every kind the catalogue serves at more than one version', () => {
    assert.deepEqual([...CONVERSIONS.keys()].map((kc) => `${kc.kind}:${kc.versions.join(',')}`).sort(), [
      'FlowSchema:v1beta2,v1beta1',
      'HorizontalPodAutoscaler:v2,v1,v2beta2',
      'PriorityLevelConfiguration:v1beta2,v1beta1',
    ]);
  });

  for (const [kc, generate] of CONVERSIONS) {
    for (const brand of [ORCH_BRAND, KUBERNETES_BRAND]) {
      const group = brand.group(kc.groupStem, kc.branded);
      for (const version of kc.versions.slice(1)) {
        it(`${kc.kind}: ${kc.storageVersion} -> ${version} -> ${kc.storageVersion} keeps every field (${brand.domain})`, () => {
          for (let seed = 1; seed <= 300; seed++) {
            const g = random(seed);
            const hub = generate(g, `${group}/${kc.storageVersion}`);
            const snapshot = structuredClone(hub);
            const spoke = kc.convert(hub, kc.storageVersion, version, brand);
            assert.equal(spoke.apiVersion, `${group}/${version}`);
            const back = kc.convert(spoke, version, kc.storageVersion, brand);
            assert.deepStrictEqual(back, snapshot, `seed ${seed}`);
            assert.deepStrictEqual(hub, snapshot, `seed ${seed}: conversion mutated its input`);
            // And the spoke form is stable: converting it again gives the same object.
            assert.deepStrictEqual(kc.convert(back, kc.storageVersion, version, brand), spoke, `seed ${seed}`);
          }
        });
      }
    }
  }
});

describe('HorizontalPodAutoscaler v1 annotations', () => {
  const kc = horizontalPodAutoscalerConversion;
  const v2: Obj = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 5,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'packets' }, target: { type: 'AverageValue', averageValue: '1k' } } },
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      behavior: { scaleUp: { stabilizationWindowSeconds: 0, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 4, periodSeconds: 15 }] } },
    },
    status: {
      desiredReplicas: 2,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }],
      conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2024-01-02T03:04:05Z', reason: 'ReadyForNewScale' }],
    },
  };

  it("writes upstream's annotations, in the Kubernetes domain under --kubernetes-compat", () => {
    const v1 = kc.convert(v2, 'v2', 'v1', KUBERNETES_BRAND);
    assert.deepStrictEqual(v1.metadata?.annotations, {
      'autoscaling.alpha.kubernetes.io/metrics': '[{"type":"Pods","pods":{"metricName":"packets","targetAverageValue":"1k"}}]',
      'autoscaling.alpha.kubernetes.io/current-metrics':
        '[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"0"}}]',
      'autoscaling.alpha.kubernetes.io/behavior':
        '{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}]},"ScaleDown":null}',
      'autoscaling.alpha.kubernetes.io/conditions':
        '[{"type":"AbleToScale","status":"True","lastTransitionTime":"2024-01-02T03:04:05Z","reason":"ReadyForNewScale"}]',
    });
    assert.deepStrictEqual(v1.spec, {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 50,
    });
    assert.deepStrictEqual(v1.status, { currentReplicas: 0, desiredReplicas: 2, currentCPUUtilizationPercentage: 40 });
  });

  it('uses the orch domain in orch mode', () => {
    const keys = Object.keys(kc.convert(v2, 'v2', 'v1', ORCH_BRAND).metadata?.annotations ?? {});
    assert.ok(
      keys.every((k) => k.startsWith('autoscaling.alpha.orch.io/')),
      keys.join(),
    );
  });

  it("states v1's implied 80% CPU target in v2, and ignores unreadable annotations as upstream", () => {
    const v1: Obj = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'a', annotations: { 'autoscaling.alpha.orch.io/metrics': 'not json', keep: 'me' } },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'a' }, maxReplicas: 3 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    };
    const out = kc.convert(v1, 'v1', 'v2', ORCH_BRAND);
    assert.deepStrictEqual(out.metadata, { name: 'a', annotations: { keep: 'me' } });
    assert.deepStrictEqual((out.spec as Obj).metrics, [
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    assert.deepStrictEqual(out.status, { desiredReplicas: 0 });
  });

  it('reads a behavior annotation written with any key case, as encoding/json does', () => {
    const v1: Obj = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: {
        name: 'a',
        annotations: {
          'autoscaling.alpha.orch.io/behavior': '{"scaleDown":{"selectPolicy":"Min","policies":[{"type":"Percent","value":10,"periodSeconds":60}]}}',
        },
      },
      spec: { maxReplicas: 3, targetCPUUtilizationPercentage: 70 },
    };
    const spec = kc.convert(v1, 'v1', 'v2', ORCH_BRAND).spec as Obj;
    assert.deepStrictEqual(spec.behavior, { scaleDown: { selectPolicy: 'Min', policies: [{ type: 'Percent', value: 10, periodSeconds: 60 }] } });
  });
});
