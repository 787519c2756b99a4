/**
 * Worker-thread body of bulkCreate (cache-harness.ts): `concurrency` keep-alive connections
 * POST ConfigMaps as fast as the server acknowledges them, so group commit batches many writes
 * per transaction. Raw HTTP/1.1 (raw-client.ts), so the loader costs the server's core little.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { BulkResult, BulkSpec } from './cache-harness.js';
import { encodeRequest, RawConnection } from './raw-client.js';

const spec = workerData as BulkSpec;
const url = new URL(spec.baseUrl);
const host = url.hostname.replace(/^\[|\]$/g, '');
const path = `/api/v1/namespaces/${spec.namespace}/configmaps`;

/** The body of object n, built from one template: only the name changes. */
const template = (() => {
  const doc = (payload: string) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '@NAME@', labels: { app: 'bench' } }, data: { payload } });
  // The 6-digit number replaces the 6-character placeholder, so the size stays `spec.size`.
  return doc('x'.repeat(Math.max(0, spec.size - doc('').length)));
})();

let next = spec.from;
const end = spec.from + spec.count;
let created = 0;
let errors = 0;
let firstError: string | undefined;

async function loop(): Promise<void> {
  const conn = new RawConnection({ host, port: Number(url.port), ...spec.tls });
  try {
    while (next < end) {
      const n = next++;
      const name = `${spec.prefix}${String(n).padStart(6, '0')}`;
      const status = await conn.send(encodeRequest('POST', path, url.host, template.replace('@NAME@', name)));
      if (status === 201) created++;
      else {
        errors++;
        firstError ??= `${name} -> ${status}: ${conn.lastResponse.toString('utf8').split('\r\n\r\n').slice(1).join('').slice(0, 300)}`;
      }
    }
  } catch (err) {
    errors++;
    firstError ??= (err as Error).message;
  } finally {
    conn.close();
  }
}

const t0 = performance.now();
await Promise.all(Array.from({ length: spec.concurrency }, loop));
const result: BulkResult = { created, errors, ms: performance.now() - t0, firstError };
parentPort?.postMessage(result);
