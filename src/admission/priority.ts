/**
 * The Priority admission plugin, as upstream's plugin/pkg/admission/priority: a new pod gets
 * spec.priority (and preemptionPolicy) from its PriorityClass, the global default class, or 0;
 * an update keeps what create set; and at most one PriorityClass may be the global default.
 */
import type { Registry } from '../registry/registry.js';
import type { GenericStore } from '../registry/generic-store.js';
import type { ReadPlan } from '../registry/read-options.js';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { forbidden, StatusError } from '../machinery/status.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from './admission.js';

const LATEST: ReadPlan = { kind: 'latest' };
/** Upstream's DefaultPriorityWhenNoDefaultClassExists. */
const DEFAULT_PRIORITY = 0;
const PREEMPT_LOWER_PRIORITY = 'PreemptLowerPriority';

interface PriorityClassInfo {
  name: string;
  value: number;
  /** The class's preemption policy; a stored class without one reads as upstream's default. */
  preemptionPolicy: string;
  globalDefault: boolean;
}

function classInfo(obj: Record<string, unknown>): PriorityClassInfo {
  return {
    name: String(isPlainObject(obj.metadata) ? (obj.metadata.name ?? '') : ''),
    value: typeof obj.value === 'number' ? obj.value : 0,
    preemptionPolicy: typeof obj.preemptionPolicy === 'string' && obj.preemptionPolicy !== '' ? obj.preemptionPolicy : PREEMPT_LOWER_PRIORITY,
    globalDefault: obj.globalDefault === true,
  };
}

/** Upstream's admission name for a Forbidden: the request's name, else the object's name or generateName. */
function admissionName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name;
  const meta = metaOf(a.object);
  return meta.name || meta.generateName || 'Unknown';
}

/**
 * What each cached PriorityClass says, by entry: entries are immutable and replaced on every
 * write, so a class is parsed once per version instead of once per pod created.
 */
const infoByEntry = new WeakMap<CacheEntry, PriorityClassInfo>();

/** A watch-cache entry of the PriorityClass store (the registry's, as admission may not reach storage). */
type CacheEntry = Awaited<ReturnType<GenericStore['readEntry']>>;

function entryClassInfo(entry: CacheEntry): PriorityClassInfo {
  let info = infoByEntry.get(entry);
  if (info === undefined) {
    info = classInfo(JSON.parse(entry.json.toString('utf8')));
    infoByEntry.set(entry, info);
  }
  return info;
}

/** Upstream's getDefaultPriorityClass: the global default with the lowest value, if any. */
function defaultClass(classes: GenericStore): PriorityClassInfo | undefined {
  let found: PriorityClassInfo | undefined;
  for (const entry of classes.cache?.list() ?? []) {
    const pc = entryClassInfo(entry);
    if (pc.globalDefault && (found === undefined || found.value > pc.value)) found = pc;
  }
  return found;
}

async function namedClass(classes: GenericStore, name: string): Promise<PriorityClassInfo | undefined> {
  try {
    return entryClassInfo(await classes.readEntry('', name, LATEST));
  } catch (e) {
    if (e instanceof StatusError && e.code === 404) return undefined;
    throw e;
  }
}

function specOf(pod: Obj): Record<string, unknown> {
  if (!isPlainObject(pod.spec)) pod.spec = {};
  return pod.spec as Record<string, unknown>;
}

/** Upstream's admitPod on CREATE: resolve the class and set priority and preemptionPolicy. */
async function admitNewPod(a: AdmissionAttributes, classes: GenericStore): Promise<void> {
  const spec = specOf(a.object);
  const className = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
  let priority = DEFAULT_PRIORITY;
  let preemptionPolicy = PREEMPT_LOWER_PRIORITY;
  if (className === '') {
    const dpc = defaultClass(classes);
    if (dpc !== undefined) {
      spec.priorityClassName = dpc.name;
      priority = dpc.value;
      preemptionPolicy = dpc.preemptionPolicy;
    }
  } else {
    const pc = await namedClass(classes, className);
    if (pc === undefined) throw forbidden(a.resource.groupResource, admissionName(a), `no PriorityClass with name ${className} was found`);
    priority = pc.value;
    preemptionPolicy = pc.preemptionPolicy;
  }
  if (typeof spec.priority === 'number' && spec.priority !== priority) {
    throw forbidden(
      a.resource.groupResource,
      admissionName(a),
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (typeof spec.preemptionPolicy === 'string' && spec.preemptionPolicy !== '' && spec.preemptionPolicy !== preemptionPolicy) {
    throw forbidden(
      a.resource.groupResource,
      admissionName(a),
      `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${preemptionPolicy} from the given PriorityClass name`,
    );
  }
  spec.preemptionPolicy = preemptionPolicy;
}

/** The plugin over the registry's PriorityClasses; it both mutates pods and validates classes. */
export function priorityAdmission(registry: Registry): MutatingPlugin & ValidatingPlugin {
  const group = registry.brand.group('scheduling', true);
  const served = registry.byResource(group, 'priorityclasses');
  if (!served) throw new Error('priorityclasses are not served');
  const classes: GenericStore = served;
  return {
    name: 'Priority',
    // Neither hook is async itself: writes of other resources pass without a promise.
    admit(a) {
      // Subresources (status, binding) never change a pod's priority.
      if (a.subresource !== '' || a.resource.group !== '' || a.resource.plural !== 'pods') return;
      if (a.operation === 'CREATE') return admitNewPod(a, classes);
      if (a.operation === 'UPDATE' && a.oldObject !== undefined) {
        // Create set these; an update that omits them keeps them (validation refuses any change).
        const spec = specOf(a.object);
        const old = isPlainObject(a.oldObject.spec) ? a.oldObject.spec : {};
        if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
        if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
      }
    },
    validate(a) {
      if (a.subresource !== '' || a.resource.group !== group || a.resource.plural !== 'priorityclasses') return;
      if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || a.object.globalDefault !== true) return;
      return validateDefault(a);
    },
  };

  async function validateDefault(a: AdmissionAttributes): Promise<void> {
    const dpc = defaultClass(classes);
    const name = metaOf(a.object).name ?? '';
    if (dpc !== undefined && (a.operation === 'CREATE' || dpc.name !== name)) {
      throw forbidden(a.resource.groupResource, admissionName(a), `PriorityClass ${dpc.name} is marked as default. Only one default can exist`);
    }
  }
}
