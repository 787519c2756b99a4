/**
 * autoscaling/v2beta2 HorizontalPodAutoscaler <-> v2. In 1.25 the two have the same fields; they
 * differ only in how Go writes status.currentReplicas (v2: omitempty; v2beta2: always).
 */
import type { Obj } from '../../machinery/object.js';
import { recOrNil } from '../../machinery/fields.js';
import type { Spoke } from '../conversion/kind-conversion.js';

function withStatus(obj: Obj, edit: (status: Record<string, unknown>) => void): Obj {
  const status = recOrNil(obj.status);
  if (status === undefined) return { ...obj };
  const copy = { ...status };
  edit(copy);
  return { ...obj, status: copy };
}

export const v2beta2Spoke: Spoke = {
  toHub: (obj) =>
    withStatus(obj, (s) => {
      if (s.currentReplicas === 0) delete s.currentReplicas;
    }),
  fromHub: (obj) =>
    withStatus(obj, (s) => {
      if (s.currentReplicas === undefined) {
        // Keep Go's field order: observedGeneration, lastScaleTime, currentReplicas, desiredReplicas, ...
        const entries = Object.entries(s);
        const at = entries.findIndex(([k]) => k !== 'observedGeneration' && k !== 'lastScaleTime');
        entries.splice(at < 0 ? entries.length : at, 0, ['currentReplicas', 0]);
        for (const k of Object.keys(s)) delete s[k];
        Object.assign(s, Object.fromEntries(entries));
      }
    }),
};
