/**
 * The server-managed identity and bookkeeping fields nobody owns (upstream's stripMetaManager):
 * apiVersion, kind, metadata itself and its name, namespace, uid, timestamps, generation,
 * resourceVersion and managedFields. Labels, annotations, finalizers and ownerReferences stay.
 */
import { type FieldSet, setOf } from './field-set.js';
import type { Managed } from './managed-fields.js';
import { fieldElement } from './path-element.js';

const META = fieldElement('metadata');

const STRIP: FieldSet = setOf(
  [fieldElement('apiVersion')],
  [fieldElement('kind')],
  [META],
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((f) => [
    META,
    fieldElement(f),
  ]),
);

/** Removes the stripped fields from one manager's set, dropping the manager when none is left. */
export function stripMeta(managed: Managed, manager: string): void {
  const vs = managed.fields.get(manager);
  if (vs === undefined) return;
  const set = vs.set.difference(STRIP);
  if (set.empty()) managed.fields.delete(manager);
  else if (set !== vs.set) managed.fields.set(manager, { set, apiVersion: vs.apiVersion, applied: vs.applied });
}
