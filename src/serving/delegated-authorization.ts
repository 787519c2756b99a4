/**
 * A component's delegated authorization (apiserver's DelegatingAuthorizationOptions): members of
 * `system:masters` are allowed, then the `--authorization-always-allow-paths`, then a
 * SubjectAccessReview to the API server of `--authorization-kubeconfig` (allow and deny answers
 * cached for their TTLs). Without that kubeconfig everything not allowed before is forbidden.
 */
import { privilegedGroupAuthorizer, unionAuthorizer } from '../auth/authz/authorizer.js';
import { pathAuthorizer } from '../auth/authz/path.js';
import { webhookAuthorizer } from '../auth/authz/webhook.js';
import type { Authorizer } from '../machinery/authorization.js';
import type { Brand } from '../machinery/brand.js';
import { klog } from '../machinery/klog.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';

export interface DelegatedAuthorizationOptions {
  kubeconfig: string;
  brand: Brand;
  allowedTtlMs: number;
  deniedTtlMs: number;
  alwaysAllowPaths: string[];
}

export function delegatedAuthorization(opts: DelegatedAuthorizationOptions): Authorizer {
  const modules: Authorizer[] = [privilegedGroupAuthorizer];
  if (opts.alwaysAllowPaths.length > 0) modules.push(pathAuthorizer(opts.alwaysAllowPaths));
  if (!opts.kubeconfig) {
    klog.warning("No authorization-kubeconfig provided, so SubjectAccessReview of authorization tokens won't work.");
  } else {
    const connection = readKubeconfig(opts.kubeconfig);
    const group = opts.brand.group('authorization', true);
    const base = new URL(connection.server);
    modules.push(
      webhookAuthorizer({
        connection,
        group,
        version: 'v1',
        path: `${base.pathname.replace(/\/$/, '')}/apis/${group}/v1/subjectaccessreviews`,
        authorizedTtlMs: opts.allowedTtlMs,
        unauthorizedTtlMs: opts.deniedTtlMs,
      }),
    );
  }
  return unionAuthorizer(modules);
}
