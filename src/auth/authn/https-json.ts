/**
 * A bounded HTTPS GET of a JSON document (OIDC discovery and keys): a time limit, a size limit,
 * the given CA; every failure is an Error with a reason, never a hang.
 */
import https from 'node:https';

const MAX_BYTES = 1024 * 1024;

export function getJson(url: string, agent: https.Agent, timeoutMs: number, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = https.get(url, { agent, timeout: timeoutMs, headers: { accept: 'application/json', ...headers } }, (res) => {
      if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) > 299) {
        res.resume();
        // The status rides along: callers tell "not there" (404) from "not allowed" (403).
        reject(Object.assign(new Error(`${url}: HTTP ${res.statusCode}`), { status: res.statusCode }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_BYTES) res.destroy(new Error(`${url}: response larger than ${MAX_BYTES} bytes`));
        else chunks.push(c);
      });
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (e) {
          reject(new Error(`${url}: ${e instanceof Error ? e.message : String(e)}`));
        }
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${url}: timed out`)));
    req.on('error', reject);
  });
}
