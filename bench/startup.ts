/**
 * Start-to-ready of the real `bin/orch-apiserver` binary: from spawn until it has printed its
 * URL and `GET /readyz` answers 200; plus bare `node -e ''` as the floor under that figure.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { spawnNode, stopChild, waitForLine } from './children.js';
import { requestOnce } from './http-client.js';
import type { TlsMaterial } from './load.js';

const URL_PATTERN = /https:\/\/[A-Za-z0-9.\-[\]:]+/;

export interface StartSample {
  /** spawn -> the line with the URL on stdout */
  lineMs: number;
  /** spawn -> first 200 from /readyz */
  readyMs: number;
  /** SIGTERM -> exit */
  stopMs: number;
}

/** Median wall time of spawning `node -e ''` until it exits, over `runs` runs. */
export async function measureNodeBaseline(root: string, runs = 5): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const child = spawnNode(['-e', ''], root);
    await new Promise((resolve) => child.proc.once('exit', resolve));
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** Starts `bin/orch-apiserver` on `dataDir`, times it to ready, then stops it with SIGTERM. */
export async function measureStart(root: string, dataDir: string): Promise<StartSample> {
  const t0 = performance.now();
  const child = spawnNode([join(root, 'bin', 'orch-apiserver'), '--secure-port', '0', '--data-dir', dataDir], root);
  try {
    const line = await waitForLine(child, (l) => URL_PATTERN.test(l), 15_000);
    const lineMs = performance.now() - t0;
    const url = (URL_PATTERN.exec(line)?.[0] ?? '').replace(/[.:]$/, '');
    await pollReady(url, dataDir, t0 + 15_000);
    const readyMs = performance.now() - t0;
    const t1 = performance.now();
    await stopChild(child);
    return { lineMs, readyMs, stopMs: performance.now() - t1 };
  } finally {
    await stopChild(child, 1000);
  }
}

async function pollReady(url: string, dataDir: string, deadline: number): Promise<void> {
  // Anonymous first (upstream lets anyone read /readyz); admin credentials if that is refused.
  let tls: TlsMaterial | undefined;
  let insecure = true;
  let last = '';
  while (performance.now() < deadline) {
    try {
      const reply = await requestOnce(`${url}/readyz`, { tls, insecure, timeoutMs: 2000 });
      if (reply.status === 200) return;
      last = `${reply.status} ${reply.body.slice(0, 200)}`;
      if ((reply.status === 401 || reply.status === 403) && !tls) {
        tls = await adminCredentials(dataDir);
        insecure = false;
        continue;
      }
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${url}/readyz never answered 200 (last: ${last})`);
}

async function adminCredentials(dataDir: string): Promise<TlsMaterial> {
  const doc = parse(await readFile(join(dataDir, 'admin.kubeconfig'), 'utf8'));
  const b64 = (s: string) => Buffer.from(s, 'base64').toString('utf8');
  return {
    ca: b64(doc.clusters[0].cluster['certificate-authority-data']),
    cert: b64(doc.users[0].user['client-certificate-data']),
    key: b64(doc.users[0].user['client-key-data']),
  };
}

/** Median of a non-empty sample. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
