/**
 * The tokencleaner controller (upstream's `pkg/controller/bootstrap/tokencleaner.go`): a
 * bootstrap-token Secret whose `expiration` has passed (or cannot be parsed) is deleted, with
 * its uid as precondition so a re-created Secret of the same name survives; one that expires
 * later is looked at again when it does.
 */
import type { RestClient } from '../client/rest-client.js';
import { ApiError } from '../client/rest-client.js';
import type { ListWatch } from '../client/list-watch.js';
import { bootstrapTokenExpired, secretField } from '../machinery/bootstrap-token.js';
import type { Brand } from '../machinery/brand.js';
import { type SecretObj, watchBootstrapTokenSecrets } from './bootstrap-token-secrets.js';
import { KeyedQueue } from './keyed-queue.js';

export interface TokenCleanerOptions {
  client: RestClient;
  brand: Brand;
  now?: () => number;
  log?: (line: string) => void;
}

export class TokenCleaner {
  private listWatch: ListWatch | undefined;
  private readonly known = new Map<string, SecretObj>();
  private readonly queue: KeyedQueue;

  constructor(private readonly opts: TokenCleanerOptions) {
    this.queue = new KeyedQueue(
      (name) => this.sync(name),
      (name, err) => (opts.log ?? ((l) => process.stderr.write(`${l}\n`)))(`E error cleaning bootstrap token ${name}: ${(err as Error).message}`),
    );
  }

  start(): void {
    this.listWatch = watchBootstrapTokenSecrets(this.opts.client, this.opts.brand, {
      onList: (items) => {
        this.known.clear();
        for (const s of items) this.observe(s);
      },
      onChange: (s) => this.observe(s),
      onDelete: (s) => this.known.delete(s.metadata.name),
    });
  }

  stop(): void {
    this.listWatch?.stop();
    this.queue.stop();
  }

  private observe(s: SecretObj): void {
    this.known.set(s.metadata.name, s);
    this.queue.add(s.metadata.name);
  }

  private async sync(name: string): Promise<void> {
    const secret = this.known.get(name);
    if (!secret || secret.metadata.deletionTimestamp) return;
    const expiration = secretField(secret.data, 'expiration');
    if (expiration === undefined) return;
    const now = (this.opts.now ?? Date.now)();
    if (!bootstrapTokenExpired(expiration, now)) {
      // Upstream re-queues after the remaining lifetime rather than polling.
      this.queue.addAfter(name, Date.parse(expiration) - now + 1);
      return;
    }
    const path = `/api/v1/namespaces/${encodeURIComponent(this.opts.brand.systemNamespace)}/secrets/${encodeURIComponent(name)}`;
    try {
      await this.opts.client.expect('DELETE', path, { kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: secret.metadata.uid } });
    } catch (err) {
      // Gone already, or a newer Secret of that name (its own expiry is judged when it arrives).
      if (err instanceof ApiError && (err.status === 404 || err.status === 409)) return;
      throw err;
    }
  }
}
