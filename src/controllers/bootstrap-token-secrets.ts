/**
 * The bootstrap-token Secrets of the system namespace, as both bootstrap controllers watch
 * them (upstream filters its Secret informer to the system namespace and the token type).
 */
import type { RestClient } from '../client/rest-client.js';
import { type ListWatch, listAndWatch } from '../client/list-watch.js';
import { bootstrapTokenSecretType } from '../machinery/bootstrap-token.js';
import type { Brand } from '../machinery/brand.js';

export interface SecretObj {
  metadata: { name: string; namespace?: string; uid?: string; deletionTimestamp?: string };
  type?: string;
  data?: Record<string, string>;
}

/** Watches the token Secrets; `onChange` gets every added or updated one, `onDelete` the removed. */
export function watchBootstrapTokenSecrets(
  client: RestClient,
  brand: Brand,
  handlers: { onList(items: SecretObj[]): void; onChange(s: SecretObj): void; onDelete(s: SecretObj): void },
): ListWatch {
  const type = bootstrapTokenSecretType(brand);
  const selector = encodeURIComponent(`type=${type}`);
  return listAndWatch<SecretObj>(client, `/api/v1/namespaces/${encodeURIComponent(brand.systemNamespace)}/secrets?fieldSelector=${selector}`, {
    onList: (items) => handlers.onList(items.filter((s) => s.type === type)),
    onEvent: (t, s) => {
      if (s.type !== type) return;
      if (t === 'DELETED') handlers.onDelete(s);
      else handlers.onChange(s);
    },
  });
}
