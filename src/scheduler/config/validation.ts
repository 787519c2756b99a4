/**
 * Validation of a configuration as upstream's ValidateKubeSchedulerConfiguration, the parts that
 * apply here: profile names present and unique, one common QueueSort (plugins and args, because
 * there is one pending queue), knobs in range, pluginConfig names unique.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { duplicate, type FieldError, invalid, required } from '../../machinery/status.js';
import type { KubeSchedulerConfiguration } from './types.js';

/** Field errors of a configuration; empty when valid. */
export function validateConfiguration(cfg: KubeSchedulerConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const pct = cfg.percentageOfNodesToScore;
  if (pct !== undefined && (pct < 0 || pct > 100)) errs.push(invalid('percentageOfNodesToScore', pct, 'not in valid range [0-100]'));
  const initial = cfg.podInitialBackoffSeconds;
  if (initial !== undefined && initial <= 0) errs.push(invalid('podInitialBackoffSeconds', initial, 'must be greater than 0'));
  const max = cfg.podMaxBackoffSeconds;
  if (max !== undefined && max < (initial ?? 1)) errs.push(invalid('podMaxBackoffSeconds', max, 'must be greater than or equal to PodInitialBackoffSeconds'));
  const profiles = cfg.profiles ?? [];
  const names = new Set<string>();
  profiles.forEach((prof, i) => {
    const path = `profiles[${i}]`;
    const name = prof.schedulerName ?? '';
    if (name === '') errs.push(required(`${path}.schedulerName`));
    else if (names.has(name)) errs.push(duplicate(`${path}.schedulerName`, name));
    names.add(name);
    const seen = new Set<string>();
    (prof.pluginConfig ?? []).forEach((pc, j) => {
      if (seen.has(pc.name)) errs.push(duplicate(`${path}.pluginConfig[${j}]`, pc.name));
      seen.add(pc.name);
    });
    for (const [ep, set] of Object.entries(prof.plugins ?? {})) {
      (set?.enabled ?? []).forEach((e, j) => {
        if (e.weight !== undefined && e.weight < 0) errs.push(invalid(`${path}.plugins.${ep}.enabled[${j}].weight`, e.weight, 'must not be negative'));
      });
    }
  });
  if (profiles.length > 1) {
    const canon = profiles[0].plugins?.queueSort;
    const canonArgs = queueSortArgs(profiles[0]);
    for (let i = 1; i < profiles.length; i++) {
      const curr = profiles[i].plugins?.queueSort;
      if (!deepEqual(canon ?? null, curr ?? null)) {
        errs.push(invalid(`profiles[${i}].plugins.queueSort`, curr, 'has to match for all profiles'));
      } else if (!deepEqual(canonArgs, queueSortArgs(profiles[i]))) {
        errs.push(invalid(`profiles[${i}].pluginConfig`, queueSortArgs(profiles[i]), 'queueSort plugin args have to match for all profiles'));
      }
    }
  }
  return errs;
}

// Args of the plugins a profile names at queueSort (PrioritySort when it names none).
function queueSortArgs(prof: NonNullable<KubeSchedulerConfiguration['profiles']>[number]): unknown[] {
  const names = new Set((prof.plugins?.queueSort?.enabled ?? [{ name: 'PrioritySort' }]).map((e) => e.name));
  return (prof.pluginConfig ?? []).filter((pc) => names.has(pc.name)).map((pc) => pc.args ?? null);
}
