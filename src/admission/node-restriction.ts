/**
 * NodeRestriction (upstream's plugin/pkg/admission/noderestriction, 1.25): what a kubelet may
 * write. A node may create only mirror pods bound to itself that refer to nothing else, delete
 * and evict only pods bound to it, update only the status of its pods, modify only its own Node
 * (not its taints, nor labels under `node-restriction.<domain>/` or unknown `<domain>` labels),
 * only its own Lease in the node-lease namespace and its own CSINode, and request tokens only
 * for pods bound to it. Other users pass untouched.
 *
 * Upstream enables it with --enable-admission-plugins; orch has no such flag and runs it
 * whenever the Node authorization mode is on, the pairing every real cluster uses: the Node
 * mode lets kubelets write nodes and pods, this plugin keeps each kubelet to its own.
 */
import { mirrorPodAnnotation } from '../api/core/pod-validation.js';
import type { Brand } from '../machinery/brand.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { type Rec, rec, records, str, stringMap } from '../machinery/fields.js';
import { nodeIdentity } from '../machinery/node-identity.js';
import { metaOf, type Obj } from '../machinery/object.js';
import { ownValue } from '../machinery/own-property.js';
import { podConfigMapNames, podMountsClaim, podSecretNames } from '../machinery/pod-references.js';
import { forbidden, type StatusError } from '../machinery/status.js';
import type { ReadPlan } from '../registry/read-options.js';
import type { Registry } from '../registry/registry.js';
import type { AdmissionAttributes, ValidatingPlugin } from './admission.js';

const LATEST: ReadPlan = { kind: 'latest' };
const q = (s: string): string => JSON.stringify(s);

export function nodeRestriction(registry: Registry): ValidatingPlugin {
  const brand = registry.brand;
  const mirror = mirrorPodAnnotation(brand);
  const coordination = brand.group('coordination', true);
  const storage = brand.group('storage', true);
  const labels = labelRules(brand);

  /** Upstream's admission.NewForbidden: named by the request, else by the object, else "Unknown". */
  const refuse = (a: AdmissionAttributes, why: string): StatusError =>
    forbidden(a.resource.groupResource, a.name || str(rec(a.object.metadata).name) || 'Unknown', why);

  /** The stored object, or the registry's 404 as upstream returns its lister's NotFound. */
  const read = async (group: string, resource: string, namespace: string, name: string): Promise<Rec> => {
    const store = registry.byResource(group, resource);
    if (!store) throw new Error(`${resource} are not served`);
    const entry = await store.readEntry(namespace, name, LATEST);
    return rec(JSON.parse(entry.json.toString('utf8')));
  };

  const podCreate = async (node: string, a: AdmissionAttributes): Promise<void> => {
    const pod = a.object;
    const meta = metaOf(pod);
    if (!Object.hasOwn(rec(meta.annotations), mirror))
      throw refuse(a, `pod does not have ${q(mirror)} annotation, node ${q(node)} can only create mirror pods`);
    if (str(rec(pod.spec).nodeName) !== node) throw refuse(a, `node ${q(node)} can only create pods with spec.nodeName set to itself`);
    const owners = records(meta.ownerReferences);
    if (owners.length > 1) throw refuse(a, `node ${q(node)} can only create pods with a single owner reference set to itself`);
    if (owners.length === 1) {
      const owner = owners[0];
      if (str(owner.apiVersion) !== 'v1' || str(owner.kind) !== 'Node' || str(owner.name) !== node) {
        throw refuse(a, `node ${q(node)} can only create pods with an owner reference set to itself`);
      }
      if (owner.controller !== true) throw refuse(a, `node ${q(node)} can only create pods with a controller owner reference set to itself`);
      if (owner.blockOwnerDeletion === true) throw refuse(a, `node ${q(node)} must not set blockOwnerDeletion on an owner reference`);
      const nodeObj = await read('', 'nodes', '', node);
      const uid = str(rec(nodeObj.metadata).uid);
      if (str(owner.uid) !== uid) throw refuse(a, `node ${node} UID mismatch: expected ${str(owner.uid)} got ${uid}`);
    }
    // A node must not gain access to other objects by creating a pod that names them.
    if (str(rec(pod.spec).serviceAccountName) !== '') throw refuse(a, `node ${q(node)} can not create pods that reference a service account`);
    if (podSecretNames(pod).length > 0) throw refuse(a, `node ${q(node)} can not create pods that reference secrets`);
    if (podConfigMapNames(pod).length > 0) throw refuse(a, `node ${q(node)} can not create pods that reference configmaps`);
    if (podMountsClaim(pod)) throw refuse(a, `node ${q(node)} can not create pods that reference persistentvolumeclaims`);
  };

  const pod = async (node: string, a: AdmissionAttributes): Promise<void> => {
    switch (a.subresource) {
      case '':
        if (a.operation === 'CREATE') return podCreate(node, a);
        if (a.operation === 'DELETE') {
          const existing = a.oldObject ?? a.object;
          if (str(rec(existing.spec).nodeName) !== node) throw refuse(a, `node ${q(node)} can only delete pods with spec.nodeName set to itself`);
          return;
        }
        throw refuse(a, `unexpected operation ${q(a.operation)}, node ${q(node)} can only create and delete mirror pods`);
      case 'status': {
        if (a.operation !== 'UPDATE') throw refuse(a, `unexpected operation ${q(a.operation)}`);
        const old = a.oldObject ?? {};
        if (str(rec(old.spec).nodeName) !== node) throw refuse(a, `node ${q(node)} can only update pod status for pods with spec.nodeName set to itself`);
        if (!deepEqual(stringMap(rec(old.metadata).labels), stringMap(rec(a.object.metadata).labels))) {
          throw refuse(a, `node ${q(node)} cannot update labels through pod status`);
        }
        return;
      }
      case 'eviction': {
        if (a.operation !== 'CREATE') throw refuse(a, `unexpected operation ${a.operation}`);
        // The pod named by the request, else by the Eviction.
        const podName = a.name || str(rec(a.object.metadata).name);
        if (podName === '') throw refuse(a, 'could not determine pod from request data');
        const existing = await read('', 'pods', a.namespace, podName);
        if (str(rec(existing.spec).nodeName) !== node) throw refuse(a, `node ${node} can only evict pods with spec.nodeName set to itself`);
        return;
      }
      default:
        throw refuse(a, `unexpected pod subresource ${q(a.subresource)}, only 'status' and 'eviction' are allowed`);
    }
  };

  const nodeObject = (node: string, a: AdmissionAttributes): void => {
    const requested = a.name || (a.operation === 'CREATE' ? str(rec(a.object.metadata).name) : '');
    if (requested !== node) throw refuse(a, `node ${q(node)} is not allowed to modify node ${q(requested)}`);
    const spec = rec(a.object.spec);
    if (a.operation === 'CREATE') {
      // Access is scoped by what the Node names: a node naming a config source would widen its own view.
      if (spec.configSource !== undefined && spec.configSource !== null) {
        throw refuse(a, `node ${q(node)} is not allowed to create pods with a non-nil configSource`);
      }
      const bad = labels.forbidden(modifiedLabels(stringMap(rec(a.object.metadata).labels), {}));
      if (bad.length > 0) throw refuse(a, `node ${q(node)} is not allowed to set the following labels: ${bad.join(', ')}`);
    }
    if (a.operation === 'UPDATE') {
      const oldSpec = rec(a.oldObject?.spec);
      if (spec.configSource !== undefined && spec.configSource !== null && !deepEqual(spec.configSource, oldSpec.configSource)) {
        throw refuse(a, `node ${q(node)} is not allowed to update configSource to a new non-nil configSource`);
      }
      // A node that could change its taints could steer workloads meant elsewhere to itself.
      if (!deepEqual(emptyAsAbsent(spec.taints), emptyAsAbsent(oldSpec.taints))) throw refuse(a, `node ${q(node)} is not allowed to modify taints`);
      const changed = modifiedLabels(stringMap(rec(a.object.metadata).labels), stringMap(rec(a.oldObject?.metadata).labels));
      const bad = labels.forbidden(changed);
      if (bad.length > 0) throw refuse(a, `is not allowed to modify labels: ${bad.join(', ')}`);
    }
  };

  const claimStatus = (node: string, a: AdmissionAttributes): void => {
    if (a.subresource !== 'status') throw refuse(a, 'may only update PVC status');
    if (a.operation !== 'UPDATE') throw refuse(a, `unexpected operation ${q(a.operation)}`);
    const changed = claimChanges(a.oldObject ?? {}, a.object);
    if (changed.length > 0) {
      throw refuse(a, `node ${q(node)} is not allowed to update fields other than status.capacity and status.conditions: ${changed.join(', ')}`);
    }
  };

  const serviceAccountToken = async (a: AdmissionAttributes): Promise<void> => {
    if (a.operation !== 'CREATE' || a.subresource !== 'token') return;
    // A node's tokens must be bound to a pod scheduled on it.
    const ref = rec(rec(a.object.spec).boundObjectRef);
    const node = nodeIdentity(a.ctx.user) ?? '';
    if (str(ref.apiVersion) !== 'v1' || str(ref.kind) !== 'Pod' || str(ref.name) === '') throw refuse(a, 'node requested token not bound to a pod');
    if (str(ref.uid) === '') throw refuse(a, 'node requested token with a pod binding without a uid');
    const existing = await read('', 'pods', a.namespace, str(ref.name));
    if (str(ref.uid) !== str(rec(existing.metadata).uid)) {
      throw refuse(
        a,
        `the UID in the bound object reference (${str(ref.uid)}) does not match the UID in record. The object might have been deleted and then recreated`,
      );
    }
    if (str(rec(existing.spec).nodeName) !== node) throw refuse(a, 'node requested token bound to a pod scheduled on a different node');
  };

  const ownNamed = (node: string, a: AdmissionAttributes, what: string): void => {
    // A create's name is in its body; the authorizer could not check it.
    const name = a.operation === 'CREATE' ? str(rec(a.object.metadata).name) : a.name;
    if (name !== node) throw refuse(a, `can only access ${what} with the same name as the requesting node`);
  };

  return {
    name: 'NodeRestriction',
    // Not async itself: requests of anyone but a node pass without a promise.
    validate(a) {
      const node = nodeIdentity(a.ctx.user);
      if (node === undefined) return;
      return validateNodeRequest(node, a);
    },
  };

  async function validateNodeRequest(node: string, a: AdmissionAttributes): Promise<void> {
    if (node === '') throw refuse(a, `could not determine node from user ${q(a.ctx.user.name)}`);
    const { group, plural } = a.resource;
    if (group === '') {
      switch (plural) {
        case 'pods':
          return pod(node, a);
        case 'nodes':
          return nodeObject(node, a);
        case 'persistentvolumeclaims':
          return claimStatus(node, a);
        case 'serviceaccounts':
          return serviceAccountToken(a);
      }
      return;
    }
    if (group === coordination && plural === 'leases') {
      if (a.namespace !== brand.nodeLeaseNamespace) throw refuse(a, `can only access leases in the ${q(brand.nodeLeaseNamespace)} system namespace`);
      return ownNamed(node, a, 'node lease');
    }
    if (group === storage && plural === 'csinodes') return ownNamed(node, a, 'CSINode');
  }
}

/** Go's DeepEqual of two taint lists treats only nil and nil alike; JSON cannot tell nil from empty, so empty reads as absent. */
function emptyAsAbsent(v: unknown): unknown {
  return Array.isArray(v) && v.length === 0 ? undefined : v;
}

/** Label keys added, removed or changed between two label maps. */
function modifiedLabels(a: Record<string, string>, b: Record<string, string>): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(a)) if (!Object.hasOwn(b, k) || b[k] !== v) out.add(k);
  for (const [k, v] of Object.entries(b)) if (!Object.hasOwn(a, k) || a[k] !== v) out.add(k);
  return [...out];
}

/**
 * The labels a kubelet may set on its Node (k8s.io/kubelet's IsKubeletLabel) and the ones it
 * may never set (`node-restriction.<domain>/`), under the brand's label domain.
 */
function labelRules(brand: Brand): { forbidden(keys: readonly string[]): string[] } {
  const d = brand.labelDomain;
  const kubeletLabels = new Set([
    `${d}/hostname`,
    `topology.${d}/zone`,
    `topology.${d}/region`,
    `failure-domain.beta.${d}/zone`,
    `failure-domain.beta.${d}/region`,
    `beta.${d}/instance-type`,
    `node.${d}/instance-type`,
    `${d}/os`,
    `${d}/arch`,
    `beta.${d}/os`,
    `beta.${d}/arch`,
  ]);
  const kubeletNamespaces = [`kubelet.${d}`, `node.${d}`];
  const restricted = `node-restriction.${d}`;
  const within = (namespace: string, domain: string) => namespace === domain || namespace.endsWith(`.${domain}`);
  const namespaceOf = (key: string) => {
    const slash = key.indexOf('/');
    return slash < 0 ? '' : key.slice(0, slash);
  };
  const isKubeletLabel = (key: string) => kubeletLabels.has(key) || kubeletNamespaces.some((ns) => within(namespaceOf(key), ns));
  // Upstream reserves both kubernetes.io and k8s.io; orch's label domain and API domain are both orch.io.
  const reserved = [...new Set([d, brand.domain])];
  return {
    forbidden(keys) {
      const out = new Set<string>();
      for (const key of keys) {
        const ns = namespaceOf(key);
        if (within(ns, restricted)) out.add(key);
        if (reserved.some((r) => within(ns, r)) && !isKubeletLabel(key)) out.add(key);
      }
      return [...out].sort();
    },
  };
}

/**
 * What a node's PVC status write changed besides status.capacity and status.conditions
 * (resourceVersion and managedFields ignored, as upstream): the top-level paths that differ.
 */
function claimChanges(old: Obj, next: Obj): string[] {
  const strip = (o: Obj): Rec => {
    const meta = { ...rec(o.metadata) };
    delete meta.resourceVersion;
    delete meta.managedFields;
    const status = { ...rec(o.status) };
    delete status.capacity;
    delete status.conditions;
    return { metadata: meta, spec: o.spec, status };
  };
  const a = strip(old);
  const b = strip(next);
  const changed: string[] = [];
  for (const part of ['metadata', 'spec', 'status']) {
    const x = rec(a[part]);
    const y = rec(b[part]);
    for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) if (!deepEqual(ownValue(x, k), ownValue(y, k))) changed.push(`${part}.${k}`);
  }
  return changed;
}
