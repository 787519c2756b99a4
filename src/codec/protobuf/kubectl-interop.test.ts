/**
 * Live interop with kubectl 1.33 (skipped when the binary is absent): kubectl POSTs a typed
 * create as Protobuf to a recording server, which answers with encodeProtobufObject; kubectl
 * decodes that answer with Go's generated code and prints it with `-o json`. This checks our
 * decoder against Go's encoder and our encoder against Go's decoder.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const run = promisify(execFile);

type Obj = Record<string, unknown>;

/** What a server would add on create, covering every metadata field kind (maps, lists, pointers, times, FieldsV1). */
function asStored(obj: Obj): Obj {
  const out: Obj = {
    ...obj,
    metadata: {
      ...(obj.metadata as Obj),
      uid: '9b0c7e0e-1d8b-4c1e-a3b2-5f6e7d8c9a0b',
      resourceVersion: '42',
      generation: 1,
      creationTimestamp: '2024-01-02T03:04:05Z',
      labels: { app: 'web' },
      annotations: { note: 'x' },
      finalizers: ['example.com/f'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'o', uid: 'u-0', controller: false, blockOwnerDeletion: true }],
      managedFields: [
        {
          manager: 'kubectl-create',
          operation: 'Update',
          apiVersion: 'v1',
          time: '2024-01-02T03:04:05Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
        },
      ],
    },
  };
  if (obj.kind === 'Namespace') Object.assign(out, { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  if (obj.kind === 'ConfigMap') Object.assign(out, { binaryData: { b: Buffer.from([0, 1, 255]).toString('base64') }, immutable: true });
  if (obj.kind === 'Secret')
    Object.assign(out, { type: 'Opaque', immutable: false, data: { ...(obj.data as Obj), bin: Buffer.from([0, 0xfe]).toString('base64') } });
  if (obj.kind === 'ServiceAccount') Object.assign(out, { secrets: [{ name: 's1' }], imagePullSecrets: [{ name: 'p' }], automountServiceAccountToken: false });
  return out;
}

describe('kubectl 1.33 interop', { skip: existsSync(KUBECTL) ? false : `${KUBECTL} not installed` }, () => {
  let server: Server;
  let dir: string;
  let kubeconfig: string;
  let received: Obj | undefined;
  let answered: Obj | undefined;

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.headers['content-type'] !== PROTOBUF) {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }));
          return;
        }
        received = decodeProtobufObject(Buffer.concat(chunks));
        answered = asStored(received);
        res.writeHead(201, { 'content-type': PROTOBUF });
        res.end(encodeProtobufObject(answered));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'orch-pb-kubectl-'));
    kubeconfig = join(dir, 'kubeconfig');
    const { port } = server.address() as AddressInfo;
    writeFileSync(
      kubeconfig,
      `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: "http://127.0.0.1:${port}"}\n` +
        `users:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n`,
    );
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function kubectl(args: string[]): Promise<Obj> {
    const { stdout } = await run(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args, '-o', 'json'], { timeout: 30_000 });
    return JSON.parse(stdout) as Obj;
  }

  for (const args of [
    ['create', 'namespace', 'foo'],
    ['create', 'configmap', 'c', '--from-literal=a=b', '--from-literal=empty=', '-n', 'default'],
    ['create', 'secret', 'generic', 's', '--from-literal=k=v', '-n', 'default'],
    ['create', 'serviceaccount', 'sa1', '-n', 'default'],
  ]) {
    it(`kubectl ${args.join(' ')}`, async () => {
      received = answered = undefined;
      const printed = await kubectl([...args, '--show-managed-fields']);
      // Our decode of kubectl's Protobuf body equals the JSON kubectl itself would send.
      assert.deepStrictEqual(received, await kubectl([...args, '--dry-run=client']));
      // kubectl (Go) decodes our Protobuf answer into exactly the object we encoded, and so do we.
      assert.deepStrictEqual(printed, answered);
      assert.deepStrictEqual(decodeProtobufObject(encodeProtobufObject(printed)), printed);
    });
  }
});
