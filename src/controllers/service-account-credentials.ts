/**
 * --use-service-account-credentials, as upstream's SAControllerClientBuilder: with its own
 * credentials the controller manager makes sure the controller's ServiceAccount exists in the
 * system namespace, asks the TokenRequest API (`serviceaccounts/<name>/token`) for a token, and
 * hands the controller a bearer-token client; the token is renewed before it expires (at 80%
 * of its life, as client-go's cached token source), retrying with backoff when refused.
 */
import { ApiError, type RestClient } from '../client/rest-client.js';

/** Upstream's defaultExpirationSeconds for controller tokens. */
const TOKEN_SECONDS = 3600;
const RETRY_MS = 1000;

export interface ServiceAccountClient {
  client: RestClient;
  stop(): void;
}

async function ensureServiceAccount(base: RestClient, namespace: string, name: string): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts`;
  const got = await base.request('GET', `${path}/${encodeURIComponent(name)}`);
  if (got.status === 200) return;
  if (got.status !== 404) throw new ApiError(got.status, got.body, `GET ${path}/${name}`);
  const made = await base.request('POST', path, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  if (made.status !== 201 && made.status !== 409) throw new ApiError(made.status, made.body, `POST ${path}`);
}

async function requestToken(base: RestClient, apiVersion: string, namespace: string, name: string): Promise<{ token: string; expiresAt: number }> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/serviceaccounts/${encodeURIComponent(name)}/token`;
  const body = await base.expect<{ status?: { token?: string; expirationTimestamp?: string } }>('POST', path, {
    apiVersion,
    kind: 'TokenRequest',
    spec: { expirationSeconds: TOKEN_SECONDS },
  });
  const token = body.status?.token;
  if (!token) throw new Error(`POST ${path}: no token in the response`);
  const exp = Date.parse(body.status?.expirationTimestamp ?? '');
  return { token, expiresAt: Number.isFinite(exp) ? exp : Date.now() + TOKEN_SECONDS * 1000 };
}

/** A client acting as `system:serviceaccount:<namespace>:<name>`; resolves once it has its first token. */
export async function serviceAccountClient(
  base: RestClient,
  /** The TokenRequest group version the server serves (`authentication.orch.io/v1`). */
  tokenRequestVersion: string,
  namespace: string,
  name: string,
  userAgent: string,
  log: (message: string) => void,
  signal?: AbortSignal,
): Promise<ServiceAccountClient> {
  let current = '';
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const fetch = async (): Promise<number> => {
    await ensureServiceAccount(base, namespace, name);
    const t = await requestToken(base, tokenRequestVersion, namespace, name);
    current = t.token;
    return Math.max(RETRY_MS, (t.expiresAt - Date.now()) * 0.8);
  };
  // The first token is waited for (with retries): a controller cannot start without it.
  for (let delay = RETRY_MS; ; delay = Math.min(delay * 2, 30_000)) {
    if (signal?.aborted) throw new Error(`stopped before a token for ${namespace}/${name} was obtained`);
    try {
      const renewIn = await fetch();
      const renew = (ms: number) => {
        if (stopped) return;
        timer = setTimeout(() => {
          fetch().then(renew, (err) => {
            log(`renewing the token of service account ${namespace}/${name}: ${String(err)}`);
            renew(RETRY_MS);
          });
        }, ms);
        timer.unref?.();
      };
      renew(renewIn);
      break;
    } catch (err) {
      log(`getting a token for service account ${namespace}/${name}: ${String(err)}`);
      await new Promise((r) => setTimeout(r, delay));
    }
  }
  const client = base.derive({ certPem: undefined, keyPem: undefined, bearerToken: () => current, userAgent });
  return {
    client,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      client.close();
    },
  };
}
