/**
 * Validation of a configuration as Kubernetes 1.21's ValidateKubeSchedulerConfiguration, in its
 * order and words: client connection, leader election, parallelism, profiles (names present and
 * unique, pluginConfig names unique and args valid), one common QueueSort (plugins and args,
 * because there is one pending queue), bind addresses, knobs in range, extenders. Defaults are
 * applied first, as upstream validates the defaulted object; profiles are checked as given.
 */
import { isIP } from 'node:net';
import { deepEqual } from '../../machinery/deep-equal.js';
import { formatDurationMs, parseDuration } from '../../machinery/duration.js';
import { duplicate, type FieldError, fieldErrorBody, invalid, PrintedValue, required } from '../../machinery/status.js';
import { defaultBindAddress, splitHostPort } from './complete.js';
import type { KubeSchedulerConfiguration, KubeSchedulerProfile, PluginEntry, PluginSet } from './types.js';

/** Upstream's aggregate text of field errors: one as itself, several as `[a, b]`. */
export function fieldErrorsText(errs: readonly FieldError[]): string {
  const parts = errs.map((e) => `${e.field}: ${fieldErrorBody(e)}`);
  return parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
}

/** Field errors of a configuration; empty when valid. */
export function validateConfiguration(cfg: KubeSchedulerConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const burst = cfg.clientConnection?.burst ?? 100;
  if (burst < 0) errs.push(invalid('clientConnection.burst', burst, 'must be non-negative'));
  errs.push(...validateLeaderElection(cfg));
  const parallelism = cfg.parallelism ?? 16;
  if (parallelism <= 0) errs.push(invalid('parallelism', parallelism, 'should be an integer value greater than zero'));
  const profiles = cfg.profiles && cfg.profiles.length > 0 ? cfg.profiles : [{ schedulerName: 'default-scheduler' }];
  const seen = new Set<string>();
  profiles.forEach((prof, i) => {
    const path = `profiles[${i}]`;
    // A lone profile without a name is named by defaulting.
    const name = prof.schedulerName ?? (profiles.length === 1 ? 'default-scheduler' : '');
    if (name === '') errs.push(required(`${path}.schedulerName`));
    errs.push(...validatePluginConfig(path, prof));
    if (seen.has(name)) errs.push(duplicate(`${path}.schedulerName`, name));
    seen.add(name);
  });
  errs.push(...validateCommonQueueSort(profiles));
  for (const key of ['healthzBindAddress', 'metricsBindAddress'] as const) {
    const value = defaultBindAddress(cfg[key]);
    for (const msg of socketAddressProblems(value)) errs.push(invalid(key, value, msg));
  }
  const pct = cfg.percentageOfNodesToScore ?? 0;
  if (pct < 0 || pct > 100) errs.push(invalid('percentageOfNodesToScore', pct, 'not in valid range [0-100]'));
  const initial = cfg.podInitialBackoffSeconds ?? 1;
  if (initial <= 0) errs.push(invalid('podInitialBackoffSeconds', initial, 'must be greater than 0'));
  const max = cfg.podMaxBackoffSeconds ?? 10;
  if (max < initial) errs.push(invalid('podMaxBackoffSeconds', max, 'must be greater than or equal to PodInitialBackoffSeconds'));
  errs.push(...validateExtenders(cfg));
  return errs;
}

/** component-base ValidateLeaderElectionConfiguration (only when leader election is on). */
function validateLeaderElection(cfg: KubeSchedulerConfiguration): FieldError[] {
  const le = cfg.leaderElection ?? {};
  if (le.leaderElect === false) return [];
  const errs: FieldError[] = [];
  const dur = (v: string | undefined, fallback: string) => {
    const ms = v === undefined ? 0 : parseDuration(v);
    return ms === 0 ? parseDuration(fallback) : ms;
  };
  const lease = dur(le.leaseDuration, '15s');
  const renew = dur(le.renewDeadline, '10s');
  const retry = dur(le.retryPeriod, '2s');
  const shown = (ms: number) => new PrintedValue(goDurationText(ms));
  if (lease <= 0) errs.push(invalid('leaderElection.leaseDuration', shown(lease), 'must be greater than zero'));
  if (renew <= 0) errs.push(invalid('leaderElection.renewDeadline', shown(renew), 'must be greater than zero'));
  if (retry <= 0) errs.push(invalid('leaderElection.retryPeriod', shown(retry), 'must be greater than zero'));
  if (lease <= renew) errs.push(invalid('leaderElection.leaseDuration', shown(renew), 'LeaseDuration must be greater than RenewDeadline'));
  return errs;
}

function goDurationText(ms: number): string {
  return formatDurationMs(ms);
}

/** Duplicate pluginConfig names and the args of the plugins upstream validates. */
function validatePluginConfig(path: string, prof: KubeSchedulerProfile): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (prof.pluginConfig ?? []).forEach((pc, i) => {
    const at = `${path}.pluginConfig[${i}]`;
    if (seen.has(pc.name)) errs.push(duplicate(at, pc.name));
    seen.add(pc.name);
    const args = (pc.args ?? {}) as Record<string, unknown>;
    // Upstream's args validators report paths relative to the args (a nil parent path).
    switch (pc.name) {
      case 'DefaultPreemption': {
        const pct = (args.minCandidateNodesPercentage as number | undefined) ?? 10;
        const abs = (args.minCandidateNodesAbsolute as number | undefined) ?? 100;
        if (pct < 0 || pct > 100) errs.push(invalid('minCandidateNodesPercentage', pct, 'not in valid range [0, 100]'));
        if (abs < 0) errs.push(invalid('minCandidateNodesAbsolute', abs, 'not in valid range [0, inf)'));
        if (pct === 0 && abs === 0)
          errs.push(
            invalid(
              '',
              new PrintedValue(
                `config.DefaultPreemptionArgs{TypeMeta:v1.TypeMeta{Kind:"", APIVersion:""}, MinCandidateNodesPercentage:0, MinCandidateNodesAbsolute:0}`,
              ),
              'both minCandidateNodesPercentage and minCandidateNodesAbsolute cannot be zero',
            ),
          );
        break;
      }
      case 'InterPodAffinity': {
        const w = (args.hardPodAffinityWeight as number | undefined) ?? 1;
        if (w < 0 || w > 100) errs.push(invalid('hardPodAffinityWeight', w, 'not in valid range [0-100]'));
        break;
      }
      case 'VolumeBinding': {
        const t = (args.bindTimeoutSeconds as number | undefined) ?? 600;
        if (t < 0) errs.push(invalid('bindTimeoutSeconds', t, 'invalid BindTimeoutSeconds, should not be a negative value'));
        break;
      }
    }
  });
  return errs;
}

/** Go's %#v of a config.PluginSet, as upstream prints the mismatching queueSort. */
function goPluginSet(set: PluginSet | undefined): PrintedValue {
  const list = (l: PluginEntry[] | undefined) =>
    l === undefined
      ? '[]config.Plugin(nil)'
      : `[]config.Plugin{${l.map((p) => `config.Plugin{Name:${JSON.stringify(p.name)}, Weight:${p.weight ?? 0}}`).join(', ')}}`;
  return new PrintedValue(`config.PluginSet{Enabled:${list(set?.enabled)}, Disabled:${list(set?.disabled)}}`);
}

/** validateCommonQueueSort: every profile's queueSort set (and its plugin's args) as the first one's. */
function validateCommonQueueSort(profiles: readonly KubeSchedulerProfile[]): FieldError[] {
  const errs: FieldError[] = [];
  const canon = profiles[0].plugins?.queueSort;
  const enabled = canon?.enabled ?? [];
  const queueSortName = enabled.length > 0 ? enabled[0].name : '';
  if (enabled.length > 1) errs.push(invalid('profiles[0].plugins.queueSort.Enabled', enabled.length, 'only one queue sort plugin can be enabled'));
  const queueSortArgs = queueSortName ? profiles[0].pluginConfig?.find((pc) => pc.name === queueSortName)?.args : undefined;
  for (let i = 1; i < profiles.length; i++) {
    const curr = profiles[i].plugins?.queueSort;
    if (!deepEqual(normalizeSet(canon), normalizeSet(curr)))
      errs.push(invalid(`profiles[${i}].plugins.queueSort`, goPluginSet(curr), 'has to match for all profiles'));
    for (const pc of profiles[i].pluginConfig ?? []) {
      if (pc.name === queueSortName && !deepEqual(queueSortArgs ?? null, pc.args ?? null))
        errs.push(invalid(`profiles[${i}].pluginConfig.args`, pc.args, 'has to match for all profiles'));
    }
  }
  return errs;
}

// cmp.Equal treats an absent set and an empty one alike only when both lists are nil.
function normalizeSet(set: PluginSet | undefined): unknown {
  return { enabled: set?.enabled ?? null, disabled: set?.disabled ?? null };
}

/** validation.IsValidSocketAddr. */
function socketAddressProblems(value: string): string[] {
  const split = splitHostPort(value);
  if (!split) return ['must be a valid socket address format, (e.g. 0.0.0.0:10254 or [::]:10254)'];
  const out: string[] = [];
  const port = /^\d+$/.test(split.port) ? Number(split.port) : 0;
  if (port < 1 || port > 65535) out.push('must be between 1 and 65535, inclusive');
  if (isIP(split.host) === 0) out.push('must be a valid IP address, (e.g. 10.9.8.7)');
  return out;
}

function validateExtenders(cfg: KubeSchedulerConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  let binders = 0;
  const managed = new Set<string>();
  (cfg.extenders ?? []).forEach((ext, i) => {
    const path = `extenders[${i}]`;
    if ((ext.prioritizeVerb ?? '') !== '' && (ext.weight ?? 0) <= 0)
      errs.push(invalid(`${path}.weight`, ext.weight ?? 0, 'must have a positive weight applied to it'));
    if ((ext.bindVerb ?? '') !== '') binders++;
    (ext.managedResources ?? []).forEach((r, j) => {
      if (managed.has(r.name)) errs.push(invalid(`${path}.managedResources[${j}].name`, r.name, 'duplicate extender managed resource name'));
      managed.add(r.name);
    });
  });
  if (binders > 1) errs.push(invalid('extenders', `found ${binders} extenders implementing bind`, 'only one extender can implement bind'));
  return errs;
}
