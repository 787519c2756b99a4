/**
 * CertificateSigningRequest's strategy (upstream's `pkg/registry/certificates/certificates/
 * strategy.go` and `pkg/apis/certificates/validation`): the requester's identity is recorded
 * at create and never changes; a main-resource write changes neither spec nor status; a status
 * write cannot touch the Approved/Denied conditions (only `/approval` can, and never removes
 * them); a certificate once issued stays.
 */
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, notSupported, required } from '../../machinery/status.js';
import type { Strategy, StrategyContext } from '../types.js';

interface Condition {
  type?: string;
  status?: string;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
}

const APPROVAL_TYPES = ['Approved', 'Denied'];
const ALL_USAGES = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
].sort();

function spec(obj: Obj): Record<string, unknown> {
  const s = obj.spec;
  return typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : {};
}

function conditionsOf(obj: Obj): Condition[] {
  const status = obj.status as { conditions?: unknown } | undefined;
  return Array.isArray(status?.conditions) ? (status.conditions as Condition[]) : [];
}

function setConditions(obj: Obj, conditions: Condition[]): void {
  const status = (typeof obj.status === 'object' && obj.status !== null ? obj.status : {}) as Record<string, unknown>;
  if (conditions.length > 0) status.conditions = conditions;
  else delete status.conditions;
  obj.status = status;
}

/** Upstream's populateConditionTimestamps: missing times are now, or the old same-status condition's transition. */
function populateTimestamps(obj: Obj, old: Obj | undefined, now: Date): void {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z');
  const before = old ? conditionsOf(old) : [];
  for (const c of conditionsOf(obj)) {
    c.lastUpdateTime ??= stamp;
    if (c.lastTransitionTime === undefined) {
      const prior = before.find((o) => o.type === c.type);
      c.lastTransitionTime = prior && prior.status === c.status && prior.lastTransitionTime ? prior.lastTransitionTime : stamp;
    }
  }
}

function prepareForCreate(obj: Obj, ctx: StrategyContext): void {
  delete obj.status;
  const s = spec(obj);
  // The requester is who the server says, never what the body claims.
  for (const k of ['username', 'uid', 'groups', 'extra']) delete s[k];
  const user = ctx.user;
  if (user) {
    s.username = user.name;
    if (user.uid) s.uid = user.uid;
    if (user.groups.length > 0) s.groups = [...user.groups];
    if (user.extra && Object.keys(user.extra).length > 0) s.extra = user.extra;
  }
  obj.spec = s;
}

function prepareForUpdate(obj: Obj, old: Obj, ctx: StrategyContext): void {
  obj.spec = old.spec;
  if (ctx.subresource === 'status') {
    // Approval conditions come only through /approval: keep the stored ones.
    const kept = conditionsOf(old).filter((c) => APPROVAL_TYPES.includes(c.type ?? ''));
    setConditions(obj, [...kept, ...conditionsOf(obj).filter((c) => !APPROVAL_TYPES.includes(c.type ?? ''))]);
  }
  populateTimestamps(obj, old, ctx.now);
}

function validateConditions(obj: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  const conditions = conditionsOf(obj);
  conditions.forEach((c, i) => {
    const path = `status.conditions[${i}]`;
    if (!c.type) errs.push(required(`${path}.type`));
    if (c.type && ['Approved', 'Denied', 'Failed'].includes(c.type)) {
      if (seen.has(c.type)) errs.push({ type: 'FieldValueDuplicate', field: `${path}.type`, value: c.type });
      seen.add(c.type);
    }
    if (c.type && APPROVAL_TYPES.includes(c.type)) {
      if (c.status !== 'True') errs.push(notSupported(`${path}.status`, c.status ?? '', ['True']));
    } else if (!['True', 'False', 'Unknown'].includes(c.status ?? '')) {
      errs.push(notSupported(`${path}.status`, c.status ?? '', ['False', 'True', 'Unknown']));
    }
  });
  const approved = conditions.some((c) => c.type === 'Approved' && c.status === 'True');
  const denied = conditions.some((c) => c.type === 'Denied' && c.status === 'True');
  if (approved && denied) errs.push(invalid('status.conditions', conditions, 'Approved and Denied conditions are mutually exclusive'));
  return errs;
}

function validate(obj: Obj): FieldError[] {
  const s = spec(obj);
  const errs: FieldError[] = [];
  const request = typeof s.request === 'string' ? Buffer.from(s.request, 'base64').toString('utf8') : '';
  if (!request.includes('-----BEGIN CERTIFICATE REQUEST-----'))
    errs.push(invalid('spec.request', s.request ?? [], 'PEM block type must be CERTIFICATE REQUEST'));
  const usages = Array.isArray(s.usages) ? (s.usages as unknown[]) : [];
  if (usages.length === 0) errs.push(required('spec.usages', 'usages must be provided'));
  const seen = new Set<unknown>();
  usages.forEach((u, i) => {
    if (typeof u !== 'string' || !ALL_USAGES.includes(u)) errs.push(notSupported(`spec.usages[${i}]`, u, ALL_USAGES));
    else if (seen.has(u)) errs.push({ type: 'FieldValueDuplicate', field: `spec.usages[${i}]`, value: u });
    seen.add(u);
  });
  const signer = s.signerName;
  if (typeof signer !== 'string' || signer === '') errs.push(required('spec.signerName'));
  else if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?\/[^/]+/.test(signer))
    errs.push(invalid('spec.signerName', signer, "must be a fully qualified domain and path of the form 'example.com/signer-name'"));
  if (typeof s.expirationSeconds === 'number' && s.expirationSeconds < 600)
    errs.push(invalid('spec.expirationSeconds', s.expirationSeconds, 'may not specify a duration less than 600 seconds (10 minutes)'));
  return [...errs, ...validateConditions(obj)];
}

function validateUpdate(obj: Obj, old: Obj, ctx: StrategyContext): FieldError[] {
  const errs = validateConditions(obj);
  const oldCert = (old.status as { certificate?: string } | undefined)?.certificate;
  const newCert = (obj.status as { certificate?: string } | undefined)?.certificate;
  if (oldCert && newCert !== oldCert) errs.push(forbiddenField('status.certificate', 'updates may not modify existing certificate content'));
  if (ctx.subresource === 'approval') {
    for (const type of APPROVAL_TYPES) {
      const before = conditionsOf(old).find((c) => c.type === type);
      const after = conditionsOf(obj).find((c) => c.type === type);
      if (before && !after) errs.push(forbiddenField('status.conditions', `updates may not remove a condition of type "${type}"`));
      else if (before && after && before.status !== after.status)
        errs.push(forbiddenField('status.conditions', `updates may not change a condition of type "${type}"`));
    }
  }
  return errs;
}

export const certificateSigningRequestStrategy: Strategy = { prepareForCreate, prepareForUpdate, validate, validateUpdate };
