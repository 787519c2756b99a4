/**
 * Posting an AdmissionReview to a webhook, as upstream's admission webhook client does: one
 * attempt (upstream does not retry admission webhooks), limited by the hook's timeoutSeconds
 * (also sent as the `timeout` query parameter), TLS verified with the caBundle (or the system's
 * roots), the answer size-limited. At most MAX_IN_FLIGHT calls run at once; waiting for a slot
 * counts toward the hook's timeout, so a slow webhook never holds a request longer than its limit.
 */
import https from 'node:https';

export interface WebhookTarget {
  url: URL;
  /** The TLS server name to verify (a service's `<name>.<namespace>.svc`), if not the URL's host. */
  serverName?: string;
  caPem?: string;
}

export type CallResult = { body: unknown } | { error: string };

/** Upstream's webhook response limit (the apiserver reads at most this many bytes of a reply). */
const MAX_RESPONSE_BYTES = 3 * 1024 * 1024;
const MAX_IN_FLIGHT = 64;
/** Distinct caBundles whose connections are kept alive. */
const MAX_AGENTS = 64;

export class WebhookCaller {
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly agents = new Map<string, https.Agent>();

  private agentFor(caPem: string | undefined, serverName: string | undefined): https.Agent {
    const key = `${serverName ?? ''}\n${caPem ?? ''}`;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      if (this.agents.size >= MAX_AGENTS) {
        const [oldest, old] = this.agents.entries().next().value as [string, https.Agent];
        this.agents.delete(oldest);
        old.destroy();
      }
      agent = new https.Agent({ keepAlive: true, noDelay: true, ca: caPem, servername: serverName, maxSockets: MAX_IN_FLIGHT });
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Waits for a call slot until deadline; false when the deadline passed first. */
  private acquire(deadline: number): Promise<boolean> {
    if (this.inFlight < MAX_IN_FLIGHT) {
      this.inFlight++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.inFlight++;
        resolve(true);
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(wake);
        if (i >= 0) this.waiting.splice(i, 1);
        resolve(false);
      }, deadline - Date.now());
      this.waiting.push(wake);
    });
  }

  private release(): void {
    this.inFlight--;
    this.waiting.shift()?.();
  }

  /** POSTs payload; resolves (never rejects) within timeoutSeconds with the JSON answer or why there is none. */
  async post(target: WebhookTarget, payload: string, timeoutSeconds: number): Promise<CallResult> {
    const url = new URL(target.url.href);
    url.searchParams.set('timeout', `${timeoutSeconds}s`);
    const where = `Post ${JSON.stringify(url.href)}`;
    const deadline = Date.now() + timeoutSeconds * 1000;
    if (!(await this.acquire(deadline))) return { error: `${where}: context deadline exceeded` };
    try {
      return await this.attempt(target, url, payload, deadline, where);
    } finally {
      this.release();
    }
  }

  private attempt(target: WebhookTarget, url: URL, payload: string, deadline: number, where: string): Promise<CallResult> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (r: CallResult): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = https.request(
        {
          agent: this.agentFor(target.caPem, target.serverName),
          host: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || 443,
          path: url.pathname + url.search,
          method: 'POST',
          servername: target.serverName,
          headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (size > MAX_RESPONSE_BYTES) {
              res.destroy();
              finish({ error: `${where}: the response exceeds ${MAX_RESPONSE_BYTES} bytes` });
            } else chunks.push(c);
          });
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8');
            if (status < 200 || status > 299) return finish({ error: `${where}: the server responded with status ${status}` });
            try {
              finish({ body: JSON.parse(text) });
            } catch {
              finish({ error: `${where}: the response is not JSON` });
            }
          });
          res.on('error', (e) => finish({ error: `${where}: ${e.message}` }));
        },
      );
      // Upstream's context deadline: the whole exchange, connect to last byte.
      const timer = setTimeout(
        () => {
          finish({ error: `${where}: context deadline exceeded` });
          req.destroy();
        },
        Math.max(0, deadline - Date.now()),
      );
      req.on('error', (e) => finish({ error: `${where}: ${e.message}` }));
      req.end(payload);
    });
  }

  close(): void {
    for (const a of this.agents.values()) a.destroy();
    this.agents.clear();
  }
}
