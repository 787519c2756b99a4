/**
 * The review (virtual) resources: POST a review, get it back with `status` filled in; nothing
 * is stored. Access reviews ask the same authorizer that guards requests; token reviews ask
 * the token authenticators (none are configured until the authentication work lands).
 */
import type { Authorizer, Attributes } from '../machinery/authorization.js';
import type { UserInfo } from '../machinery/user.js';
import { isPlainObject, metaOf, type Obj } from '../machinery/object.js';
import { badRequest, invalidObject, required, type FieldError } from '../machinery/status.js';
import type { RequestContext } from './context.js';
import type { ResourceInfo } from './resource-info.js';
import { str } from '../machinery/fields.js';

export interface ReviewDeps {
  authorizer: Authorizer;
  /** Runs the server's token authenticators: the user, or an error text when one refused the token. */
  authenticateToken(token: string): Promise<{ user?: UserInfo; error?: string }>;
}

type Spec = Record<string, unknown>;

function attributesOf(spec: Spec, user: UserInfo): Attributes {
  const ra = isPlainObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
  const nra = isPlainObject(spec.nonResourceAttributes) ? spec.nonResourceAttributes : undefined;
  if (ra) {
    return {
      user,
      verb: str(ra.verb),
      isResourceRequest: true,
      path: '',
      namespace: str(ra.namespace),
      apiGroup: str(ra.group),
      apiVersion: str(ra.version),
      resource: str(ra.resource),
      subresource: str(ra.subresource),
      name: str(ra.name),
    };
  }
  return {
    user,
    verb: str(nra?.verb),
    isResourceRequest: false,
    path: str(nra?.path),
    namespace: '',
    apiGroup: '',
    apiVersion: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

/** Upstream's SubjectAccessReview status: allowed, denied, the modules' reason and any evaluation error. */
async function accessStatus(deps: ReviewDeps, spec: Spec, user: UserInfo): Promise<Record<string, unknown>> {
  const a = await deps.authorizer.authorize(attributesOf(spec, user));
  const status: Record<string, unknown> = { allowed: a.decision === 'allow' };
  if (a.decision === 'deny') status.denied = true;
  if (a.reason) status.reason = a.reason;
  if (a.error) status.evaluationError = a.error;
  return status;
}

function validateAttributes(info: ResourceInfo, spec: Spec, name: string): void {
  const errs: FieldError[] = [];
  const hasRa = isPlainObject(spec.resourceAttributes);
  const hasNra = isPlainObject(spec.nonResourceAttributes);
  if (hasRa && hasNra)
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.nonResourceAttributes',
      value: spec.nonResourceAttributes,
      detail: 'cannot be specified in combination with resourceAttributes',
    });
  if (!hasRa && !hasNra)
    errs.push({
      type: 'FieldValueInvalid',
      field: 'spec.resourceAttributes',
      value: null,
      detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
    });
  if (errs.length) throw invalidObject(info.kind, info.group, name, errs);
}

/** Answers one review: the posted object with its status. */
export async function review(info: ResourceInfo, deps: ReviewDeps, ctx: RequestContext, namespace: string, obj: Obj): Promise<Obj> {
  const spec: Spec = isPlainObject(obj.spec) ? obj.spec : {};
  const name = metaOf(obj).name ?? '';
  const out: Obj = { ...obj, metadata: { ...metaOf(obj), creationTimestamp: null as unknown as string } };
  switch (info.kind) {
    case 'SelfSubjectAccessReview':
      validateAttributes(info, spec, name);
      out.status = await accessStatus(deps, spec, ctx.user);
      return out;
    case 'SubjectAccessReview': {
      validateAttributes(info, spec, name);
      if (str(spec.user) === '' && !Array.isArray(spec.groups)) {
        throw invalidObject(info.kind, info.group, name, [
          { type: 'FieldValueInvalid', field: 'spec.user', value: '', detail: 'at least one of user or group must be specified' },
        ]);
      }
      const user: UserInfo = {
        name: str(spec.user),
        uid: str(spec.uid),
        groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [],
        extra: isPlainObject(spec.extra) ? (spec.extra as Record<string, string[]>) : undefined,
      };
      out.status = await accessStatus(deps, spec, user);
      return out;
    }
    case 'LocalSubjectAccessReview': {
      validateAttributes(info, spec, name);
      const ra = isPlainObject(spec.resourceAttributes) ? spec.resourceAttributes : undefined;
      if (ra && str(ra.namespace) !== namespace) {
        throw invalidObject(info.kind, info.group, name, [
          { type: 'FieldValueInvalid', field: 'spec.resourceAttributes.namespace', value: str(ra.namespace), detail: 'must match metadata.namespace' },
        ]);
      }
      const user: UserInfo = { name: str(spec.user), uid: str(spec.uid), groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [] };
      out.status = await accessStatus(deps, spec, user);
      return out;
    }
    case 'SelfSubjectRulesReview': {
      if (str(spec.namespace) === '') throw invalidObject(info.kind, info.group, name, [required('spec.namespace')]);
      const rules = await deps.authorizer.rulesFor(ctx.user, str(spec.namespace));
      out.status = {
        resourceRules: rules.resourceRules,
        nonResourceRules: rules.nonResourceRules,
        incomplete: rules.incomplete,
        ...(rules.error ? { evaluationError: rules.error } : {}),
      };
      return out;
    }
    case 'SelfSubjectReview': {
      // The caller as authentication (and impersonation) left it; extra keys as upstream returns them.
      const u = ctx.user;
      const userInfo: Record<string, unknown> = { username: u.name };
      if (u.uid) userInfo.uid = u.uid;
      if (u.groups.length > 0) userInfo.groups = u.groups;
      if (u.extra && Object.keys(u.extra).length > 0) userInfo.extra = u.extra;
      return { kind: out.kind, apiVersion: out.apiVersion, metadata: out.metadata, status: { userInfo } };
    }
    case 'TokenReview': {
      const token = str(spec.token);
      if (token === '') throw invalidObject(info.kind, info.group, name, [required('spec.token')]);
      const { user, error } = await deps.authenticateToken(token);
      // Upstream: authenticated and the user when a method knew the token, else the error text of any refusal.
      out.status = user
        ? { authenticated: true, user: { username: user.name, uid: user.uid, groups: user.groups, extra: user.extra } }
        : { user: {}, ...(error ? { error } : {}) };
      return out;
    }
    default:
      throw badRequest(`${info.kind} is not a review`);
  }
}
