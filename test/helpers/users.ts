/**
 * Users other than admin for authorization tests: client certificates the cluster's CA signs
 * (CN = user, O = groups), as https agents and as kubeconfig files for kubectl.
 */
import { readFile, writeFile } from 'node:fs/promises';
import https from 'node:https';
import { join } from 'node:path';
import { issueClientCertificate, pkiPaths } from '../../src/pki/certificates.js';
import { type RawResponse, request, type RequestOptions, type TestCluster } from './cluster.js';

export interface TestUser {
  name: string;
  certPem: string;
  keyPem: string;
  agent: https.Agent;
  /** A request as this user. */
  request(method: string, path: string, opts?: Omit<RequestOptions, 'agent' | 'anonymous'>): Promise<RawResponse>;
  /** Writes a kubeconfig for this user into dir; resolves with its path. */
  kubeconfig(dir: string): Promise<string>;
}

/** A user of the cluster, signed by its CA. */
export async function testUser(cluster: TestCluster, name: string, groups: readonly string[] = []): Promise<TestUser> {
  const paths = pkiPaths(join(cluster.dataDir, 'pki'));
  const issued = await issueClientCertificate(await readFile(paths.caCert, 'utf8'), await readFile(paths.caKey, 'utf8'), name, groups);
  const agent = new https.Agent({ cert: issued.certPem, key: issued.keyPem, ca: cluster.caPem, keepAlive: false });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  return {
    name,
    certPem: issued.certPem,
    keyPem: issued.keyPem,
    agent,
    request: (method, path, opts = {}) => request(cluster, method, path, { ...opts, anonymous: true, agent }),
    async kubeconfig(dir) {
      const path = join(dir, `${name.replace(/[^a-z0-9-]/gi, '_')}.kubeconfig`);
      await writeFile(
        path,
        [
          'apiVersion: v1',
          'kind: Config',
          'clusters:',
          `- name: c\n  cluster:\n    server: ${cluster.url}\n    certificate-authority-data: ${b64(cluster.caPem)}`,
          'users:',
          `- name: u\n  user:\n    client-certificate-data: ${b64(issued.certPem)}\n    client-key-data: ${b64(issued.keyPem)}`,
          'contexts:',
          '- name: ctx\n  context:\n    cluster: c\n    user: u',
          'current-context: ctx',
          '',
        ].join('\n'),
        { mode: 0o600 },
      );
      return path;
    },
  };
}
