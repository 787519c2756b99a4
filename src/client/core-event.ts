/**
 * A core/v1 Event written once (client-go's record.EventRecorder without its correlator), for
 * what upstream records with the core recorder: the leader election's `LeaderElection` events.
 */
import type { Clock } from './clock.js';
import type { ObjectReference } from './event-recorder.js';
import { rfc3339 } from './micro-time.js';
import type { RestClient } from './rest-client.js';

/** Creates one core/v1 Event about `involved` from `component`; rejects when the server refuses. */
export async function recordCoreEvent(
  client: RestClient,
  clock: Clock,
  component: string,
  host: string,
  involved: ObjectReference,
  type: string,
  reason: string,
  message: string,
): Promise<void> {
  const now = clock.now();
  const namespace = involved.namespace || 'default';
  const time = rfc3339(now);
  const res = await client.request('POST', `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${involved.name ?? ''}.${(BigInt(now) * 1_000_000n).toString(16)}`, namespace },
    involvedObject: involved,
    reason,
    message,
    source: { component, host },
    firstTimestamp: time,
    lastTimestamp: time,
    count: 1,
    type,
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`create event: HTTP ${res.status} ${JSON.stringify(res.body)}`);
}
