/**
 * Upstream's framework runtime times every run of an extension point
 * (scheduler_framework_extension_point_duration_seconds{extension_point,status,profile}) and
 * how long a pod waited at Permit (scheduler_permit_wait_duration_seconds{result}). Here the
 * timing wraps a profile's Framework methods once, when the scheduler is built with a real
 * recorder, so the framework's own code and the simulator (no recorder) run untimed.
 */
import type { Framework } from './framework/runtime.js';
import { Code, type Status } from './framework/status.js';
import { type Pod, podUID } from './framework/types.js';
import type { ExtensionPointName, ProfileRecorder, SchedulerRecorder } from './metric-recorder.js';

type StatusOf<R> = (r: R) => Status | undefined;

const own: StatusOf<Status> = (s) => s;
const postFilter: StatusOf<{ status: Status }> = (r) => r.status;
/** Score returns the totals on success, a Status otherwise. */
const score: StatusOf<unknown> = (r) => (Array.isArray(r) ? undefined : (r as Status));
/** Unreserve and PostBind return nothing; upstream records them as Success. */
const none: StatusOf<void> = () => undefined;

/** Times the extension points of fwk into the profile's recorder (mutates fwk's methods, once). */
export function timeExtensionPoints(fwk: Framework, rec: SchedulerRecorder, pm: ProfileRecorder): void {
  const f = fwk as unknown as Record<string, (...args: unknown[]) => unknown>;
  const time = <R>(method: string, ep: ExtensionPointName, statusOf: StatusOf<R>) => {
    const run = f[method].bind(fwk) as (...args: unknown[]) => R | Promise<R>;
    const observe = (start: number, r: R): R => {
      pm.extensionPoint(ep, statusOf(r)?.code ?? Code.Success, rec.now() - start);
      return r;
    };
    f[method] = (...args: unknown[]) => {
      const start = rec.now();
      const r = run(...args);
      return r instanceof Promise ? r.then((v) => observe(start, v)) : observe(start, r);
    };
  };
  time('runPreFilterPlugins', 'PreFilter', own);
  time('runPostFilterPlugins', 'PostFilter', postFilter);
  time('runPreScorePlugins', 'PreScore', own);
  time('runScorePlugins', 'Score', score);
  time('runReservePluginsReserve', 'Reserve', own);
  time('runReservePluginsUnreserve', 'Unreserve', none);
  time('runPermitPlugins', 'Permit', own);
  time('runPreBindPlugins', 'PreBind', own);
  time('runBindPlugins', 'Bind', own);
  time('runPostBindPlugins', 'PostBind', none);

  const waitOnPermit = fwk.waitOnPermit.bind(fwk);
  fwk.waitOnPermit = async (pod: Pod) => {
    // Only a pod a Permit plugin parked waits; the others pass straight through, unrecorded.
    if (fwk.getWaitingPod(podUID(pod)) === undefined) return waitOnPermit(pod);
    const start = rec.now();
    const s = await waitOnPermit(pod);
    rec.permitWait(s.code, rec.now() - start);
    return s;
  };
}
