/** Upstream's helper.DefaultNormalizeScore, used by TaintToleration (reversed) and NodeAffinity. */
import type { NodeScore } from '../../framework/interfaces.js';
import { type Status, SUCCESS } from '../../framework/status.js';

/**
 * Scales scores so the largest becomes maxPriority (integer division, as upstream); reverse
 * flips them (maxPriority − score). All-zero scores stay 0, or all become maxPriority reversed.
 */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): Status {
  let maxCount = 0;
  for (const s of scores) if (s.score > maxCount) maxCount = s.score;
  if (maxCount === 0) {
    if (reverse) for (const s of scores) s.score = maxPriority;
    return SUCCESS;
  }
  for (const s of scores) {
    let v = Math.trunc((maxPriority * s.score) / maxCount);
    if (reverse) v = maxPriority - v;
    s.score = v;
  }
  return SUCCESS;
}
