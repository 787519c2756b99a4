/**
 * The scheduler's writes through the API, as upstream's: DefaultBinder's
 * `POST pods/<name>/binding`; the failure status as a strategic-merge PATCH of `pods/status`
 * written only when the PodScheduled condition or the nominated node changes; preemption
 * victims deleted; VolumeBinding's PreBind updates (the PV's claimRef, the claim's
 * selected-node annotation), after which the PV controller finishes binding.
 */
import { rfc3339 } from '../../client/micro-time.js';
import { ApiError, type RestClient } from '../../client/rest-client.js';
import type { Clock } from '../framework/clock.js';
import type { Binder, Binding, SchedulerClient } from '../framework/handle.js';
import type { PersistentVolume, PersistentVolumeClaim, Pod, PodCondition } from '../framework/types.js';
import type { WellKnownNames } from '../framework/well-known.js';
import type { VolumeBinderClient } from '../plugins/volume-binding/client.js';
import { storageNames } from '../plugins/volume-binding/volume-util.js';

const seg = encodeURIComponent;

export class ApiSchedulerWriter implements Binder, SchedulerClient, VolumeBinderClient {
  constructor(
    private readonly client: RestClient,
    private readonly clock: Clock,
    private readonly names: WellKnownNames,
  ) {}

  private podPath(ns: string | undefined, name: string | undefined): string {
    return `/api/v1/namespaces/${seg(ns ?? 'default')}/pods/${seg(name ?? '')}`;
  }

  async bind(b: Binding): Promise<void> {
    await this.client.expect('POST', `${this.podPath(b.metadata.namespace, b.metadata.name)}/binding`, b);
  }

  /** Upstream's updatePod: nothing is written when neither the condition nor the nomination would change. */
  async updatePodStatus(pod: Pod, condition: PodCondition, nominatedNodeName?: string): Promise<void> {
    const now = rfc3339(this.clock.now());
    const old = pod.status?.conditions?.find((c) => c.type === condition.type);
    const next: PodCondition = {
      type: condition.type,
      status: condition.status,
      lastProbeTime: null,
      // podutil.UpdatePodCondition keeps the transition time while the status stays.
      lastTransitionTime: old !== undefined && old.status === condition.status && old.lastTransitionTime ? old.lastTransitionTime : now,
      ...(condition.reason !== undefined ? { reason: condition.reason } : {}),
      ...(condition.message !== undefined ? { message: condition.message } : {}),
    };
    const conditionChanged =
      old === undefined ||
      old.status !== next.status ||
      (old.reason ?? '') !== (next.reason ?? '') ||
      (old.message ?? '') !== (next.message ?? '') ||
      (old.lastProbeTime ?? null) !== null ||
      old.lastTransitionTime !== next.lastTransitionTime;
    const nominate = nominatedNodeName !== undefined && (pod.status?.nominatedNodeName ?? '') !== nominatedNodeName;
    if (!conditionChanged && !nominate) return;
    const status: Record<string, unknown> = {};
    if (conditionChanged) status.conditions = [next];
    // An empty name clears the nomination (upstream's ClearNominatedNodeName): the patch removes the field.
    if (nominate) status.nominatedNodeName = nominatedNodeName === '' ? null : nominatedNodeName;
    const res = await this.client.request(
      'PATCH',
      `${this.podPath(pod.metadata.namespace, pod.metadata.name)}/status`,
      { status },
      'application/strategic-merge-patch+json',
    );
    // A pod deleted meanwhile needs no status.
    if (res.status !== 200 && res.status !== 404)
      throw new ApiError(res.status, res.body, `patch status of pod ${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  async deletePod(pod: Pod): Promise<void> {
    const res = await this.client.request('DELETE', this.podPath(pod.metadata.namespace, pod.metadata.name));
    if (res.status !== 200 && res.status !== 202 && res.status !== 404)
      throw new ApiError(res.status, res.body, `delete pod ${pod.metadata.namespace}/${pod.metadata.name}`);
  }

  /** bindAPIUpdate for a static binding: the PV with the claimRef the binder assumed. */
  async bindVolume(_pvc: PersistentVolumeClaim, pv: PersistentVolume): Promise<void> {
    await this.client.expect('PUT', `/api/v1/persistentvolumes/${seg(pv.metadata.name ?? '')}`, pv);
  }

  /** bindAPIUpdate for a dynamic provisioning: the claim with the selected node annotated. */
  async provisionVolume(pvc: PersistentVolumeClaim, nodeName: string): Promise<void> {
    const annotation = storageNames(this.names).selectedNodeAnnotation;
    const body = { ...pvc, metadata: { ...pvc.metadata, annotations: { ...pvc.metadata.annotations, [annotation]: nodeName } } };
    await this.client.expect(
      'PUT',
      `/api/v1/namespaces/${seg(pvc.metadata.namespace ?? 'default')}/persistentvolumeclaims/${seg(pvc.metadata.name ?? '')}`,
      body,
    );
  }
}
