/**
 * Upstream's `priority-and-fairness-config-producer` (pkg/registry/flowcontrol/ensurer): keeps the
 * bootstrap FlowSchemas and PriorityLevelConfigurations in the store. Mandatory objects are
 * re-created when deleted and their spec always restored; suggested ones are re-created when
 * deleted and their spec restored only while `apf.<domain>/autoupdate-spec` says "true" (or,
 * without a readable annotation, while the operator never changed them: generation 1). Objects
 * carrying the annotation "true" that the server no longer suggests are removed. It runs at start
 * and then every minute, as upstream's loop does, so deleted mandatory objects come back.
 */
import { deepEqual } from '../../machinery/deep-equal.js';
import { metaOf, type Obj } from '../../machinery/object.js';
import { StatusError } from '../../machinery/status.js';
import { systemContext } from '../../registry/bootstrap.js';
import type { GenericStore } from '../../registry/generic-store.js';
import type { Registry } from '../../registry/registry.js';
import { entryObject } from '../../registry/cache-entry.js';
import { autoUpdateAnnotation, bootstrapConfiguration } from './bootstrap-objects.js';

/** How often the configuration is ensured again after start (upstream: every minute). */
export const ENSURE_INTERVAL_MS = 60_000;

/** Go's strconv.ParseBool, which upstream reads the annotation with; undefined when it is not a boolean. */
function parseBool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/** Upstream's shouldUpdateSpec: the annotation decides; without a readable one, an object never edited (generation 1) is updated. */
export function shouldUpdateSpec(current: Obj, annotation: string): boolean {
  const meta = metaOf(current);
  const value = meta.annotations && Object.hasOwn(meta.annotations, annotation) ? meta.annotations[annotation] : undefined;
  return parseBool(value) ?? meta.generation === 1;
}

/** The object the store should hold instead of current, or undefined when current is as it should be (upstream's ShouldUpdate). */
export function desiredUpdate(current: Obj, bootstrap: Obj, mandatory: boolean, annotation: string): Obj | undefined {
  const autoUpdate = mandatory || shouldUpdateSpec(current, annotation);
  const annotations = metaOf(current).annotations ?? {};
  const updateAnnotation = parseBool(Object.hasOwn(annotations, annotation) ? annotations[annotation] : undefined) !== autoUpdate;
  const specChanged = autoUpdate && !deepEqual(current.spec, bootstrap.spec);
  if (!updateAnnotation && !specChanged) return undefined;
  const next: Obj = { ...current, metadata: { ...metaOf(current) } };
  if (updateAnnotation) metaOf(next).annotations = { ...annotations, [annotation]: String(autoUpdate) };
  if (specChanged) next.spec = structuredClone(bootstrap.spec);
  return next;
}

function isNotFound(e: unknown): boolean {
  return e instanceof StatusError && e.code === 404;
}

async function ensure(registry: Registry, store: GenericStore, bootstrap: Obj, mandatory: boolean, annotation: string): Promise<void> {
  const name = metaOf(bootstrap).name ?? '';
  const ctx = systemContext(registry);
  const current = await Promise.resolve(store.readEntry('', name, { kind: 'latest' })).then(entryObject, (e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });
  if (current === undefined) {
    await store
      .create(ctx, '', { apiVersion: store.info.apiVersion, kind: store.info.kind, ...structuredClone(bootstrap) }, { dryRun: false })
      .catch((e: unknown) => {
        if (!(e instanceof StatusError && e.reason === 'AlreadyExists')) throw e;
      });
    return;
  }
  if (desiredUpdate(current, bootstrap, mandatory, annotation) === undefined) return;
  await store.guaranteedUpdate(ctx, '', name, (live) => desiredUpdate(live, bootstrap, mandatory, annotation) ?? live, { dryRun: false, subresource: '' });
}

/** Deletes objects that carry the annotation "true" but are no longer part of the bootstrap configuration. */
async function removeStale(registry: Registry, store: GenericStore, wanted: ReadonlySet<string>, annotation: string): Promise<void> {
  for (const entry of store.cache?.list() ?? []) {
    const meta = metaOf(entryObject(entry));
    const name = meta.name ?? '';
    const annotations = meta.annotations ?? {};
    if (wanted.has(name) || !Object.hasOwn(annotations, annotation) || parseBool(annotations[annotation]) !== true) continue;
    await store.delete(systemContext(registry), '', name, { dryRun: false }).catch((e: unknown) => {
      if (!isNotFound(e)) throw e;
    });
  }
}

function storeOf(registry: Registry, resource: string): GenericStore | undefined {
  return registry.byResource(registry.brand.group('flowcontrol.apiserver', true), resource);
}

/**
 * Ensures the bootstrap configuration once: priority levels before the schemas that name them.
 * Nothing to do while the flowcontrol API is switched off (`--runtime-config`).
 */
export async function ensureFlowControlConfiguration(registry: Registry): Promise<void> {
  const cfg = bootstrapConfiguration(registry.brand);
  const annotation = autoUpdateAnnotation(registry.brand);
  const levels = storeOf(registry, 'prioritylevelconfigurations');
  const schemas = storeOf(registry, 'flowschemas');
  if (!levels || !schemas) return;
  for (const o of cfg.mandatoryPriorityLevels) await ensure(registry, levels, o, true, annotation);
  for (const o of cfg.suggestedPriorityLevels) await ensure(registry, levels, o, false, annotation);
  for (const o of cfg.mandatoryFlowSchemas) await ensure(registry, schemas, o, true, annotation);
  for (const o of cfg.suggestedFlowSchemas) await ensure(registry, schemas, o, false, annotation);
  const names = (objs: Obj[]) => new Set(objs.map((o) => metaOf(o).name ?? ''));
  await removeStale(registry, schemas, names([...cfg.mandatoryFlowSchemas, ...cfg.suggestedFlowSchemas]), annotation);
  await removeStale(registry, levels, names([...cfg.mandatoryPriorityLevels, ...cfg.suggestedPriorityLevels]), annotation);
}

/** Ensures the configuration now and then every interval; the returned function stops the loop. */
export async function startConfigProducer(registry: Registry, intervalMs = ENSURE_INTERVAL_MS): Promise<() => void> {
  await ensureFlowControlConfiguration(registry);
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    // A failed round (a write lost to an operator's, a store hiccup) is simply tried again next time.
    ensureFlowControlConfiguration(registry)
      .catch(() => {})
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
