/**
 * Defaulting steps the apps workloads share, as upstream's apps/v1 SetDefaults_* write them.
 */
import { defaultIfEmpty, defaultIfUnset } from '../../machinery/defaulting.js';
import { child, type Rec } from '../../machinery/fields.js';

/**
 * A rolling-update strategy's defaults: type RollingUpdate when empty and, for that type, the
 * two IntOrString bounds.
 */
export function defaultRollingUpdate(strategy: Rec, maxUnavailable: number | string, maxSurge: number | string): void {
  defaultIfEmpty(strategy, 'type', 'RollingUpdate');
  if (strategy.type !== 'RollingUpdate') return;
  const ru = child(strategy, 'rollingUpdate');
  defaultIfUnset(ru, 'maxUnavailable', maxUnavailable);
  defaultIfUnset(ru, 'maxSurge', maxSurge);
}
