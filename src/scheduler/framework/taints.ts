/** Taint/toleration matching as upstream's core/v1 helpers; shared by every taint-aware plugin. */
import type { Taint, Toleration } from './types.js';

/** Toleration.ToleratesTaint: effect and key match when set; Exists ignores the value. */
export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** TolerationsTolerateTaint: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
  if (tolerations === undefined) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/**
 * FindMatchingUntoleratedTaint: the first taint passing the filter that no toleration tolerates,
 * or undefined.
 */
export function findUntoleratedTaint(
  taints: readonly Taint[] | undefined,
  tolerations: readonly Toleration[] | undefined,
  filter: (t: Taint) => boolean,
): Taint | undefined {
  if (taints === undefined) return undefined;
  for (const taint of taints) if (filter(taint) && !tolerationsTolerateTaint(tolerations, taint)) return taint;
  return undefined;
}
