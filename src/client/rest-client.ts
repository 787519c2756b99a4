/**
 * The REST client controllers use to talk to the API server, exactly as a separate process
 * would: HTTPS with the admin client certificate, JSON bodies, keep-alive connections.
 */
import https from 'node:https';
import type { IncomingMessage } from 'node:http';

export interface ClientConfig {
  /** `https://host:port` */
  server: string;
  caPem: string;
  certPem: string;
  keyPem: string;
  userAgent?: string;
}

export interface ClientResponse<T = unknown> {
  status: number;
  body: T;
}

export type WatchEvent = { type: string; object: Record<string, unknown> };

export class RestClient {
  private readonly agent: https.Agent;
  private readonly url: URL;

  constructor(private readonly cfg: ClientConfig) {
    this.url = new URL(cfg.server);
    this.agent = new https.Agent({ keepAlive: true, ca: cfg.caPem, cert: cfg.certPem, key: cfg.keyPem, maxSockets: 8 });
  }

  private open(method: string, path: string, body: unknown, contentType: string): Promise<IncomingMessage> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent: this.agent,
          host: this.url.hostname,
          port: this.url.port,
          method,
          path,
          headers: {
            accept: 'application/json',
            'user-agent': this.cfg.userAgent ?? 'orch-controller-manager',
            ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** One request; resolves with the status and the decoded JSON body (never rejects on 4xx/5xx). */
  async request<T = Record<string, unknown>>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ClientResponse<T>> {
    const res = await this.open(method, path, body, contentType);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Non-JSON bodies (health endpoints) are returned as text.
    }
    return { status: res.statusCode ?? 0, body: parsed as T };
  }

  /**
   * Opens a watch and calls onEvent per event until the stream ends; resolves then.
   * Returns a stop function through `onStart` so callers can cancel.
   */
  async watch(path: string, onEvent: (e: WatchEvent) => void, onStart?: (stop: () => void) => void): Promise<void> {
    const res = await this.open('GET', path, undefined, 'application/json');
    onStart?.(() => res.destroy());
    if (res.statusCode !== 200) {
      res.resume();
      throw new Error(`watch ${path}: HTTP ${res.statusCode}`);
    }
    let buffered = '';
    try {
      for await (const chunk of res) {
        buffered += (chunk as Buffer).toString('utf8');
        let nl = buffered.indexOf('\n');
        while (nl >= 0) {
          const line = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          if (line.trim() !== '') onEvent(JSON.parse(line) as WatchEvent);
          nl = buffered.indexOf('\n');
        }
      }
    } catch {
      // A destroyed stream (stop) ends the watch quietly.
    }
  }

  /** Releases pooled connections. */
  close(): void {
    this.agent.destroy();
  }
}
