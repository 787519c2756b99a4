/**
 * serviceaccounts/<name>/token (upstream's TokenREST): a TokenRequest for a live ServiceAccount,
 * optionally bound to a Pod that runs as it or to a Secret, answered with a signed bound token
 * and its expiry. Nothing is stored. Signing is injected (registry/ knows no keys).
 */
import { badRequest, conflict, invalidObject, type FieldError } from '../machinery/status.js';
import { isPlainObject, metaOf, type Obj, rfc3339 } from '../machinery/object.js';
import { rec, str, strings } from '../machinery/fields.js';
import type { Creater } from './capabilities.js';
import type { GenericStore } from './generic-store.js';
import { readObject } from './read-object.js';
import type { RequestContext } from './context.js';

/** Signs bound tokens; built by the server from the service-account flags. */
export interface TokenIssuer {
  /** `--api-audiences`: the audiences of a request that names none. */
  readonly apiAudiences: readonly string[];
  /** `--service-account-max-token-expiration` in seconds (0: none). */
  readonly maxExpirationSeconds: number;
  issue(req: {
    namespace: string;
    serviceAccount: { name: string; uid: string };
    audiences: readonly string[];
    expirationSeconds: number;
    boundObject?: { kind: 'Pod' | 'Secret'; name: string; uid: string };
    now: number;
  }): Promise<{ token: string; expiresAt: number }>;
}

export interface TokenRequestStores {
  byResource(group: string, resource: string): GenericStore | undefined;
}

/** Upstream's default and limits of spec.expirationSeconds. */
const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

export function tokenRequestCreater(stores: TokenRequestStores, issuer: TokenIssuer | undefined): Creater {
  return {
    async create(ctx, namespace, request, opts) {
      if (!issuer) throw badRequest('this server issues no service-account tokens');
      const saName = opts.name ?? '';
      const spec = rec(request.spec);
      const expirationSeconds = typeof spec.expirationSeconds === 'number' ? spec.expirationSeconds : DEFAULT_EXPIRATION_SECONDS;
      const errs: FieldError[] = [];
      if (expirationSeconds < MIN_EXPIRATION_SECONDS) {
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.expirationSeconds',
          value: expirationSeconds,
          detail: 'may not specify a duration less than 10 minutes',
        });
      }
      if (expirationSeconds > MAX_EXPIRATION_SECONDS) {
        errs.push({
          type: 'FieldValueInvalid',
          field: 'spec.expirationSeconds',
          value: expirationSeconds,
          detail: 'may not specify a duration larger than 2^32 seconds',
        });
      }
      const kind = { group: ctx.brand.group('authentication', true) };
      if (errs.length > 0) throw invalidObject('TokenRequest', kind.group, '', errs);
      const sa = await read(stores, ctx, 'serviceaccounts', namespace, saName);
      const saUid = str(metaOf(sa).uid);
      const boundObject = await boundObjectOf(stores, ctx, namespace, saName, spec.boundObjectRef);
      const audiences = strings(spec.audiences).length > 0 ? strings(spec.audiences) : [...issuer.apiAudiences];
      const granted = issuer.maxExpirationSeconds > 0 ? Math.min(expirationSeconds, issuer.maxExpirationSeconds) : expirationSeconds;
      await opts.validatingAdmission?.(request, undefined);
      const now = ctx.now.getTime();
      const { token, expiresAt } = await issuer.issue({
        namespace,
        serviceAccount: { name: saName, uid: saUid },
        audiences,
        expirationSeconds: granted,
        boundObject,
        now,
      });
      const meta = isPlainObject(request.metadata) ? request.metadata : {};
      // Upstream answers the request itself with its status filled in.
      const out: Record<string, unknown> = {
        kind: 'TokenRequest',
        apiVersion: `${kind.group}/v1`,
        metadata: { ...meta, name: saName, namespace, creationTimestamp: null },
        spec: { ...spec, audiences, expirationSeconds: granted },
        status: { token, expirationTimestamp: rfc3339(new Date(expiresAt * 1000)) },
      };
      return out as Obj;
    },
  };
}

function read(stores: TokenRequestStores, _ctx: RequestContext, resource: string, namespace: string, name: string): Promise<Obj> {
  return readObject(stores, '', resource, namespace, name);
}

/** The object a token is bound to, checked as upstream: a Pod running as the account, or a Secret; UIDs must match. */
async function boundObjectOf(
  stores: TokenRequestStores,
  ctx: RequestContext,
  namespace: string,
  saName: string,
  ref: unknown,
): Promise<{ kind: 'Pod' | 'Secret'; name: string; uid: string } | undefined> {
  if (!isPlainObject(ref)) return undefined;
  const kind = str(ref.kind);
  const apiVersion = str(ref.apiVersion);
  const gv = apiVersion.includes('/') ? apiVersion : `/${apiVersion}`;
  if (apiVersion !== 'v1' || (kind !== 'Pod' && kind !== 'Secret')) throw badRequest(`cannot bind token to object of type ${gv}, Kind=${kind}`);
  const name = str(ref.name);
  const obj = await read(stores, ctx, kind === 'Pod' ? 'pods' : 'secrets', namespace, name);
  const uid = str(metaOf(obj).uid);
  const wanted = str(ref.uid);
  if (wanted !== '' && wanted !== uid) {
    throw conflict(
      { group: '', resource: kind },
      name,
      `the UID in the bound object reference (${wanted}) does not match the UID in record. The object might have been deleted and then recreated`,
    );
  }
  if (kind === 'Pod') {
    const runsAs = str(rec(obj.spec).serviceAccountName);
    if (runsAs !== saName)
      throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with serviceaccount ${JSON.stringify(runsAs)}`);
  }
  return { kind, name, uid };
}
