/**
 * The MutatingAdmissionWebhook and ValidatingAdmissionWebhook plugins, as upstream's
 * dispatchers: each matching hook is called with an AdmissionReview; mutating hooks one after
 * the other, their JSONPatches applied in turn (and hooks with reinvocationPolicy IfNeeded
 * called once more when a later hook changed the object); validating hooks all at once. A
 * denial is the request's error; a failed call refuses the request (failurePolicy Fail) or is
 * passed over (Ignore); a dry run refuses any matching hook that may have side effects.
 */
import { applyJsonPatchInSlices } from '../../apply/json-patch.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';
import { isQualifiedName } from '../../machinery/validation.js';
import { internalError, StatusError } from '../../machinery/status.js';
import type { Rec } from '../../machinery/fields.js';
import type { AdmissionAttributes, MutatingPlugin, ValidatingPlugin } from '../admission.js';
import type { WebhookCaller } from './caller.js';
import { CallingWebhookError, denied, dryRunUnsupported, failedClosed } from './errors.js';
import type { Hook } from './hook.js';
import { matchedVersion, namespaceMatches, type NamespaceLabels, objectMatches, type ServedVersions } from './match.js';
import type { Brand } from '../../machinery/brand.js';
import type { ResourceInfo } from '../../registry/resource-info.js';
import { reviewAnswer, reviewRequest, reviewVersion, type ReviewAnswer } from './review.js';
import { type CoreLookup, resolveTarget } from './target.js';

export interface WebhookEnvironment {
  caller: WebhookCaller;
  /** `admission.orch.io` (or `admission.k8s.io` under --kubernetes-compat). */
  admissionGroup: string;
  served: ServedVersions;
  /** The registration of a resource at a version (for a hook matched through another version). */
  resourceAt: (group: string, plural: string, version: string) => ResourceInfo | undefined;
  namespaceLabels: NamespaceLabels;
  lookup: CoreLookup;
}

/** Side effects a hook may have and still be called on a dry run. */
const DRY_RUN_SAFE = new Set(['None', 'NoneOnDryRun']);

/**
 * What a matching hook is sent: the request itself, or (matchPolicy Equivalent, matched at
 * another version) the request at that version, its objects converted as upstream converts the
 * versioned attributes; `back` turns the hook's version of the object into the request's.
 * Undefined when the hook does not match.
 */
interface HookView {
  a: AdmissionAttributes;
  back?: (obj: Obj) => Obj;
}

async function matches(hook: Hook, a: AdmissionAttributes, env: WebhookEnvironment): Promise<HookView | undefined> {
  const version = matchedVersion(hook, a, env.served);
  if (version === undefined) return undefined;
  // Upstream answers a selector it cannot compile with an internal error, whatever the failurePolicy.
  if (hook.selectorError !== undefined) throw internalError(new Error(hook.selectorError));
  if (!((await namespaceMatches(hook, a, env.namespaceLabels)) && objectMatches(hook, a))) return undefined;
  // A subresource answering in a kind of its own (a Scale, an Eviction) is sent as it is.
  const ownKind = a.operation !== 'DELETE' && typeof a.object.kind === 'string' && a.object.kind !== a.resource.kind;
  if (version === a.resource.version || ownKind) return { a };
  const at = env.resourceAt(a.resource.group, a.resource.plural, version);
  if (at === undefined) return undefined;
  const to = (obj: Obj) => convertVersion(obj, a.resource, at, a.ctx.brand);
  const view: AdmissionAttributes = { ...a, resource: at, requested: a.resource, object: to(a.object), oldObject: a.oldObject && to(a.oldObject) };
  return { a: view, back: (obj) => convertVersion(obj, at, a.resource, a.ctx.brand) };
}

/** obj (served at from's version) at to's version: through the storage version, as every served version converts. */
function convertVersion(obj: Obj, from: ResourceInfo, to: ResourceInfo, brand: Brand): Obj {
  const copy = structuredClone(obj);
  const stored = from.conversion ? from.conversion.toStorage(copy, brand) : copy;
  const out = to.conversion ? to.conversion.fromStorage(stored, brand) : stored;
  out.apiVersion = to.apiVersion;
  out.kind = to.kind;
  return out;
}

/** One call: the answer, or a CallingWebhookError; a dry run refused before any call. */
async function call(hook: Hook, a: AdmissionAttributes, env: WebhookEnvironment, mutating: boolean): Promise<ReviewAnswer> {
  if (a.dryRun && !DRY_RUN_SAFE.has(hook.sideEffects)) throw dryRunUnsupported(hook.name);
  const version = reviewVersion(hook.admissionReviewVersions);
  if (version === undefined) throw new CallingWebhookError(hook.name, 'webhook does not accept known AdmissionReview versions');
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await resolveTarget(hook.clientConfig, env.lookup);
  } catch (e) {
    throw new CallingWebhookError(hook.name, `could not get REST client: ${e instanceof Error ? e.message : String(e)}`);
  }
  const sent = reviewRequest(a, env.admissionGroup, version);
  const reply = await env.caller.post(target, sent.payload, hook.timeoutSeconds);
  if ('error' in reply) throw new CallingWebhookError(hook.name, `failed to call webhook: ${reply.error}`);
  let answer: ReviewAnswer;
  try {
    answer = reviewAnswer(reply.body, sent, mutating);
  } catch (e) {
    throw new CallingWebhookError(hook.name, `received invalid webhook response: ${e instanceof Error ? e.message : String(e)}`);
  }
  // Upstream passes warnings on whether the hook allowed the request or not, and records the
  // hook's own audit annotations under `<hook name>/<key>` (keys that are not qualified names are dropped).
  for (const w of answer.warnings) a.warn?.(w);
  for (const [k, v] of answer.auditAnnotations) {
    const key = `${hook.name}/${k}`;
    if (isQualifiedName(key).length === 0) a.annotate?.(key, v);
  }
  if (!answer.allowed) throw denied(hook.name, answer.status);
  return answer;
}

/**
 * Runs fn under the hook's failurePolicy: a failed call refuses (Fail) or is passed over
 * (Ignore), leaving upstream's `failed-open.<kind>.webhook.<admission group>/round_R_index_I`
 * audit annotation with the hook's name.
 */
async function underPolicy<T>(hook: Hook, a: AdmissionAttributes, failedOpenKey: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof CallingWebhookError)) throw e;
    if (hook.failurePolicy !== 'Ignore') throw failedClosed(e);
    a.annotate?.(failedOpenKey, hook.name);
    return undefined;
  }
}

/** Where in the dispatch a call happened, as upstream's annotation keys name it. */
function position(round: number, index: number): string {
  return `round_${round}_index_${index}`;
}

/**
 * Applies a mutating hook's patch to the object it was sent (view) and puts the result, in the
 * request's version, into a.object; true when the object changed.
 */
async function applyPatch(hook: Hook, a: AdmissionAttributes, patchText: string, view: HookView): Promise<boolean> {
  let patch: unknown;
  try {
    patch = JSON.parse(patchText);
  } catch (e) {
    throw internalError(e);
  }
  if (Array.isArray(patch) && patch.length === 0) return false;
  if (a.operation === 'DELETE')
    throw internalError(new Error(`admission webhook "${hook.name}" attempted to modify the object, which is not supported for this operation`));
  let patched: unknown;
  try {
    patched = await applyJsonPatchInSlices(view.a.object, patch);
  } catch (e) {
    throw internalError(e instanceof StatusError ? new Error(e.message) : e);
  }
  if (!isPlainObject(patched)) throw internalError(new Error('the patched object is not a JSON object'));
  if (view.back) patched = view.back(patched as Obj);
  if (deepEqual(patched, a.object)) return false;
  // The registry holds a.object: change it in place.
  const target = a.object as Rec;
  for (const k of Object.keys(target)) delete target[k];
  Object.assign(target, patched as Obj);
  return true;
}

export function mutatingWebhooks(hooks: () => readonly Hook[], env: WebhookEnvironment): MutatingPlugin {
  return {
    name: 'MutatingAdmissionWebhook',
    // Not async itself: with no webhook configured (the usual case) a write passes without a promise.
    admit(a) {
      const all = hooks();
      if (all.length === 0) return;
      return callMutating(all, a);
    },
  };

  async function callMutating(all: readonly Hook[], a: AdmissionAttributes): Promise<void> {
    // Upstream's reinvocation: an IfNeeded hook that ran before a later change runs once more.
    const calledAt = new Map<string, number>();
    let changes = 0;
    const mutation = `mutation.webhook.${env.admissionGroup}/`;
    const round = async (n: number, call1: (hook: Hook) => boolean): Promise<void> => {
      for (const [i, hook] of all.entries()) {
        if (!call1(hook)) continue;
        const view = await matches(hook, a, env);
        if (view === undefined) continue;
        const at = position(n, i);
        let mutated = false;
        const answer = await underPolicy(hook, a, `failed-open.${mutation}${at}`, () => call(hook, view.a, env, true));
        if (answer?.patch !== undefined && (await applyPatch(hook, a, answer.patch, view))) {
          changes++;
          mutated = true;
          // Upstream's patch annotation, kept only by events recorded at Request level or above.
          const patch = JSON.stringify({ configuration: hook.configuration, webhook: hook.name, patch: JSON.parse(answer.patch), patchType: 'JSONPatch' });
          a.annotate?.(`patch.webhook.${env.admissionGroup}/${at}`, patch, 'Request');
        }
        // Every call is recorded, failed ones as not mutating (upstream's deferred annotation).
        a.annotate?.(`${mutation}${at}`, JSON.stringify({ configuration: hook.configuration, webhook: hook.name, mutated }));
        // After its own change: only a later hook's change calls it again.
        calledAt.set(hook.uid, changes);
      }
    };
    await round(0, () => true);
    if (changes === 0) return;
    await round(1, (h) => h.reinvocationPolicy === 'IfNeeded' && calledAt.has(h.uid) && (calledAt.get(h.uid) ?? 0) < changes);
  }
}

export function validatingWebhooks(hooks: () => readonly Hook[], env: WebhookEnvironment): ValidatingPlugin {
  return {
    name: 'ValidatingAdmissionWebhook',
    validate(a) {
      const all = hooks();
      if (all.length === 0) return;
      return callValidating(all, a);
    },
  };

  async function callValidating(all: readonly Hook[], a: AdmissionAttributes): Promise<void> {
    const relevant: [Hook, AdmissionAttributes][] = [];
    for (const hook of all) {
      const view = await matches(hook, a, env);
      if (view !== undefined) relevant.push([hook, view.a]);
    }
    // Upstream calls validating hooks in parallel and answers with the first error in hook order.
    const failedOpen = `failed-open.validating.webhook.${env.admissionGroup}/`;
    const results = await Promise.allSettled(
      relevant.map(([hook, seen], i) => underPolicy(hook, a, `${failedOpen}${position(0, i)}`, () => call(hook, seen, env, false))),
    );
    for (const r of results) if (r.status === 'rejected') throw r.reason;
  }
}
