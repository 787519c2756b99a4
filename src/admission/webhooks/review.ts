/**
 * The AdmissionReview a webhook receives and what its answer means, as upstream's request and
 * response handling: the first version the hook accepts (`v1`, else `v1beta1`), in the brand's
 * admission group (`admission.orch.io`, `admission.k8s.io` under --kubernetes-compat, as the
 * TokenReview of the token webhook is); the answer must be of the version sent, echo the uid,
 * and carry a JSONPatch only from a mutating hook.
 */
import { randomUUID } from 'node:crypto';
import { isPlainObject } from '../../machinery/object.js';
import { bool, list, type Rec, rec, str } from '../../machinery/fields.js';
import type { AdmissionAttributes } from '../admission.js';
import type { ResourceInfo } from '../../registry/resource-info.js';

const KNOWN_VERSIONS = ['v1', 'v1beta1'];

export interface ReviewRequest {
  uid: string;
  apiVersion: string;
  payload: string;
}

export interface ReviewAnswer {
  allowed: boolean;
  /** The denial's Status (code, reason, message), when given. */
  status?: Rec;
  /** The JSONPatch document's text (base64-decoded), when one was sent. */
  patch?: string;
  warnings: string[];
  /** response.auditAnnotations: string values under keys that are qualified names, in order. */
  auditAnnotations: [string, string][];
}

/** The version of AdmissionReview to send, or undefined when the hook accepts none orch speaks. */
export function reviewVersion(accepted: readonly string[]): string | undefined {
  return accepted.find((v) => KNOWN_VERSIONS.includes(v));
}

const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

function kindOf(apiVersion: string, kind: string): { group: string; version: string; kind: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion, kind } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1), kind };
}

/** The kind of the request's object at a resource's version; a subresource may answer in a kind of its own (a Scale, an Eviction): the object says which. */
function kindSent(a: AdmissionAttributes, at: ResourceInfo): { group: string; version: string; kind: string } {
  if (a.subresource !== '' && typeof a.object.kind === 'string' && typeof a.object.apiVersion === 'string') return kindOf(a.object.apiVersion, a.object.kind);
  return { group: at.group, version: at.version, kind: at.kind };
}

/** The review of one call (each call has its own uid, as upstream's). */
export function reviewRequest(a: AdmissionAttributes, admissionGroup: string, version: string): ReviewRequest {
  const uid = randomUUID();
  const gvk = kindSent(a, a.resource);
  const gvr = { group: a.resource.group, version: a.resource.version, resource: a.resource.plural };
  const requested = a.requested ?? a.resource;
  const requestGvk = kindSent(a, requested);
  const requestGvr = { group: requested.group, version: requested.version, resource: requested.plural };
  const user = a.ctx.user;
  const userInfo: Rec = { username: user.name };
  if (user.uid !== undefined && user.uid !== '') userInfo.uid = user.uid;
  if (user.groups.length > 0) userInfo.groups = user.groups;
  if (user.extra !== undefined && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
  // Upstream's create handler takes the name from the object when the URL has none.
  const name = a.name !== '' ? a.name : a.operation === 'CREATE' ? str(rec(a.object.metadata).name) : '';
  const request: Rec = {
    uid,
    kind: gvk,
    resource: gvr,
    ...(a.subresource !== '' ? { subResource: a.subresource } : {}),
    requestKind: requestGvk,
    requestResource: requestGvr,
    ...(a.subresource !== '' ? { requestSubResource: a.subresource } : {}),
    ...(name !== '' ? { name } : {}),
    ...(a.namespace !== '' ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo,
    // A DELETE has no new object: what is deleted is the old one.
    object: a.operation === 'DELETE' ? null : a.object,
    oldObject: a.operation === 'DELETE' ? (a.oldObject ?? a.object) : (a.oldObject ?? null),
    dryRun: a.dryRun,
    options: { kind: OPTIONS_KIND[a.operation], apiVersion: `${a.ctx.brand.metaGroup}/v1`, ...(a.dryRun ? { dryRun: ['All'] } : {}) },
  };
  const apiVersion = `${admissionGroup}/${version}`;
  return { uid, apiVersion, payload: JSON.stringify({ kind: 'AdmissionReview', apiVersion, request }) };
}

/** A map[string]string field's entries; anything else contributes nothing (bounded by the answer's size cap). */
function stringEntries(v: unknown): [string, string][] {
  if (!isPlainObject(v)) return [];
  return Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string');
}

/** Upstream's VerifyAdmissionResponse: the answer, or why it is invalid (an Error). */
export function reviewAnswer(body: unknown, sent: ReviewRequest, mutating: boolean): ReviewAnswer {
  const review = rec(body);
  const gotVersion = str(review.apiVersion);
  const gotKind = str(review.kind);
  if (gotVersion !== sent.apiVersion || gotKind !== 'AdmissionReview') {
    const [g, v] = gotVersion.includes('/') ? gotVersion.split('/', 2) : ['', gotVersion];
    const [sg, sv] = sent.apiVersion.split('/', 2);
    throw new Error(`expected webhook response of ${sg}/${sv}, Kind=AdmissionReview, got ${g}/${v}, Kind=${gotKind}`);
  }
  if (!isPlainObject(review.response)) throw new Error('webhook response was absent');
  const r = review.response;
  if (str(r.uid) !== sent.uid) throw new Error(`expected response.uid="${sent.uid}", got "${str(r.uid)}"`);
  const answer: ReviewAnswer = {
    allowed: bool(r.allowed),
    warnings: list(r.warnings).filter((w): w is string => typeof w === 'string' && w !== ''),
    auditAnnotations: stringEntries(r.auditAnnotations),
  };
  if (isPlainObject(r.status)) answer.status = r.status;
  const patch = str(r.patch);
  const patchType = str(r.patchType);
  const v1 = sent.apiVersion.endsWith('/v1');
  if (patch !== '') {
    if (!mutating) throw new Error('validating webhooks may not return patches');
    if (v1 && patchType === '') throw new Error('webhook returned response.patch but not response.patchType');
  }
  if (patchType !== '' && patchType !== 'JSONPatch') throw new Error(`webhook returned invalid response.patchType of "${patchType}"`);
  if (patch !== '') {
    // Go decodes a []byte field from base64 strictly: anything else fails the review's decoding.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(patch) || patch.length % 4 !== 0) throw new Error('illegal base64 data in response.patch');
    answer.patch = Buffer.from(patch, 'base64').toString('utf8');
  }
  return answer;
}
