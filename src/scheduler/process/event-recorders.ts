/**
 * The library's EventRecorder per profile, over client/'s events/v1 recorder:
 * reportingController = the profile's schedulerName, reportingInstance =
 * `<schedulerName>-<hostname>` (upstream's NewEventBroadcasterAdapter + NewRecorder per profile).
 */
import { EventRecorder as ApiEventRecorder, type ObjectReference } from '../../client/event-recorder.js';
import type { Clock } from '../../client/clock.js';
import type { RestClient } from '../../client/rest-client.js';
import type { EventRecorder, EventType } from '../framework/handle.js';
import type { ObjectWithMeta } from '../framework/types.js';

/** A pod (or other object) as the Event's `regarding`; list items carry no kind, so pods are assumed. */
function referenceTo(o: ObjectWithMeta): ObjectReference {
  const typed = o as ObjectWithMeta & { apiVersion?: string; kind?: string };
  const m = o.metadata;
  return {
    apiVersion: typed.apiVersion ?? 'v1',
    kind: typed.kind ?? 'Pod',
    ...(m.namespace ? { namespace: m.namespace } : {}),
    name: m.name,
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}

export class ProfileEventRecorders {
  private readonly recorders = new Map<string, ApiEventRecorder>();

  constructor(
    private readonly client: RestClient,
    private readonly eventsGroup: string,
    private readonly hostname: string,
    private readonly clock?: Clock,
    private readonly onError?: (err: unknown) => void,
  ) {}

  /** The recorder a profile's framework reports through. */
  forProfile(schedulerName: string): EventRecorder {
    let r = this.recorders.get(schedulerName);
    if (r === undefined) {
      r = new ApiEventRecorder({
        client: this.client,
        eventsGroup: this.eventsGroup,
        reportingController: schedulerName,
        reportingInstance: `${schedulerName}-${this.hostname}`,
        clock: this.clock,
        onError: this.onError,
      });
      this.recorders.set(schedulerName, r);
    }
    const api = r;
    return {
      event(regarding: ObjectWithMeta, type: EventType, reason: string, action: string, message: string, related?: ObjectWithMeta) {
        api.eventf(referenceTo(regarding), related === undefined ? undefined : referenceTo(related), type, reason, action, message);
      },
    };
  }

  /** Waits for queued event writes (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((r) => r.flush()));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.recorders.values()].map((r) => r.stop()));
  }
}
