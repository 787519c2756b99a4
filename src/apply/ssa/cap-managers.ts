/**
 * Upstream's capManagersManager: past ten update managers, the oldest are merged into one
 * `ancient-changes` entry per API version, so managedFields cannot grow without bound.
 */
import { compareGoStrings } from '../../machinery/validation.js';
import { type Managed, managerIdentifier, timeSeconds } from './managed-fields.js';

/** DefaultMaxUpdateManagers. */
export const MAX_UPDATE_MANAGERS = 10;

const ANCIENT_CHANGES = 'ancient-changes';

/** Merges the oldest update managers until at most max remain (modifies managed). */
export function capUpdateManagers(managed: Managed, max = MAX_UPDATE_MANAGERS): void {
  const updaters: string[] = [];
  for (const [id, vs] of managed.fields) if (!vs.applied) updaters.push(id);
  if (updaters.length <= max) return;
  updaters.sort((a, b) => timeSeconds(managed.times.get(a)) - timeSeconds(managed.times.get(b)) || compareGoStrings(a, b));
  const firstOfVersion = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i];
    const vs = managed.fields.get(id);
    if (vs === undefined) continue;
    const time = managed.times.get(id);
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: vs.apiVersion });
    const first = firstOfVersion.get(vs.apiVersion);
    if (first === undefined) {
      firstOfVersion.set(vs.apiVersion, id);
      continue;
    }
    // The first manager of this version becomes the bucket; later ones are merged into it.
    if (!managed.fields.has(bucket)) {
      managed.fields.set(bucket, managed.fields.get(first) as NonNullable<ReturnType<typeof managed.fields.get>>);
      managed.fields.delete(first);
    }
    const bucketSet = managed.fields.get(bucket);
    managed.fields.set(bucket, { set: vs.set.union(bucketSet?.set ?? vs.set), apiVersion: vs.apiVersion, applied: vs.applied });
    managed.fields.delete(id);
    length--;
    // The bucket's time is the most recent merged update's.
    managed.times.set(bucket, time);
  }
}
