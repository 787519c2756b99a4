/**
 * Live interop with kubectl 1.33 (skipped when the binary is absent): kubectl POSTs a typed
 * create as Protobuf to a recording server, which answers with encodeProtobufObject; kubectl
 * decodes that answer with Go's generated code and prints it with `-o json`. This checks our
 * decoder against Go's encoder and our encoder against Go's decoder. The server also answers
 * a minimal legacy discovery, which `create role` and `auth can-i` need to map resource names.
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
import { aggregatedClusterRole, ingress, podDisruptionBudget, priorityClass, role, roleBinding } from './fixtures/cluster.js';
import { cronJob, deployment, job, service } from './fixtures/workloads.js';

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

/** [group, version, [plural, kind, namespaced][]] of the legacy discovery the server answers. */
const DISCOVERY: ReadonlyArray<readonly [string, string, ReadonlyArray<readonly [string, string, boolean]>]> = [
  [
    '',
    'v1',
    [
      ['pods', 'Pod', true],
      ['services', 'Service', true],
      ['serviceaccounts', 'ServiceAccount', true],
      ['resourcequotas', 'ResourceQuota', true],
    ],
  ],
  ['apps', 'v1', [['deployments', 'Deployment', true]]],
  [
    'rbac.authorization.k8s.io',
    'v1',
    [
      ['roles', 'Role', true],
      ['clusterroles', 'ClusterRole', false],
    ],
  ],
  ['scheduling.k8s.io', 'v1', [['priorityclasses', 'PriorityClass', false]]],
  ['authorization.k8s.io', 'v1', [['selfsubjectaccessreviews', 'SelfSubjectAccessReview', false]]],
];

function discovery(path: string): Obj | undefined {
  const resourceList = (groupVersion: string, resources: ReadonlyArray<readonly [string, string, boolean]>): Obj => ({
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    resources: resources.map(([name, kind, namespaced]) => ({ name, singularName: '', namespaced, kind, verbs: ['create', 'get', 'list'] })),
  });
  if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] };
  if (path === '/apis') {
    const groups = DISCOVERY.filter(([g]) => g !== '').map(([name, version]) => {
      const gv = { groupVersion: `${name}/${version}`, version };
      return { name, versions: [gv], preferredVersion: gv };
    });
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }
  for (const [group, version, resources] of DISCOVERY) {
    const gv = group === '' ? version : `${group}/${version}`;
    if (path === (group === '' ? `/api/${version}` : `/apis/${gv}`)) return resourceList(gv, resources);
  }
  return undefined;
}

/** Inserts flags before a `--` that starts the container command, where kubectl still reads them. */
function withFlags(args: readonly string[], flags: readonly string[]): string[] {
  const dash = args.indexOf('--');
  return dash < 0 ? [...args, ...flags] : [...args.slice(0, dash), ...flags, ...args.slice(dash)];
}

describe('kubectl 1.33 interop', { skip: existsSync(KUBECTL) ? false : `${KUBECTL} not installed` }, () => {
  let server: Server;
  let dir: string;
  let kubeconfig: string;
  let received: Obj | undefined;
  let answered: Obj | undefined;
  /** When set, the next create is answered with this object (else with asStored of the request). */
  let answer: ((req: Obj) => Obj) | undefined;

  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'GET') {
          const doc = discovery((req.url ?? '').split('?')[0]!);
          res.writeHead(doc ? 200 : 404, { 'content-type': 'application/json' });
          res.end(JSON.stringify(doc ?? { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'NotFound', code: 404 }));
          return;
        }
        if (req.method !== 'POST' || req.headers['content-type'] !== PROTOBUF) {
          res.writeHead(415, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'UnsupportedMediaType', code: 415 }));
          return;
        }
        received = decodeProtobufObject(Buffer.concat(chunks));
        answered = answer ? answer(received) : asStored(received);
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
        `users:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u, namespace: default}\ncurrent-context: x\n`,
    );
  });

  after(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function kubectlRaw(args: string[]): Promise<string> {
    const { stdout } = await run(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'cache'), ...args], { timeout: 30_000 });
    return stdout;
  }

  async function kubectl(args: readonly string[], flags: readonly string[] = []): Promise<Obj> {
    return JSON.parse(await kubectlRaw(withFlags(args, [...flags, '-o', 'json']))) as Obj;
  }

  for (const args of [
    ['create', 'namespace', 'foo'],
    ['create', 'configmap', 'c', '--from-literal=a=b', '--from-literal=empty=', '-n', 'default'],
    ['create', 'secret', 'generic', 's', '--from-literal=k=v', '-n', 'default'],
    ['create', 'serviceaccount', 'sa1', '-n', 'default'],
    ['create', 'quota', 'q', '--hard=pods=10,requests.cpu=2'],
  ]) {
    it(`kubectl ${args.join(' ')}`, async () => {
      received = answered = answer = undefined;
      const printed = await kubectl(args, ['--show-managed-fields']);
      // Our decode of kubectl's Protobuf body equals the JSON kubectl itself would send.
      assert.deepStrictEqual(received, await kubectl(args, ['--dry-run=client']));
      // kubectl (Go) decodes our Protobuf answer into exactly the object we encoded, and so do we.
      assert.deepStrictEqual(printed, answered);
      assert.deepStrictEqual(decodeProtobufObject(encodeProtobufObject(printed)), printed);
    });
  }

  // Each create is answered with a realistic stored object of the same kind, which kubectl must print unchanged.
  for (const [args, stored] of [
    [['create', 'deployment', 'd', '--image=nginx'], deployment],
    [['create', 'service', 'clusterip', 's', '--tcp=80:8080'], service],
    [['create', 'job', 'j', '--image=busybox', '--', 'echo', 'hi'], job],
    [['create', 'cronjob', 'cj', '--image=busybox', '--schedule=*/5 * * * *', '--', 'date'], cronJob],
    [['create', 'role', 'r', '--verb=get,list', '--resource=pods'], role],
    [['create', 'rolebinding', 'rb', '--role=r', '--user=alice', '--serviceaccount=default:sa1'], roleBinding],
    [['create', 'clusterrole', 'cr', '--verb=get', '--non-resource-url=/healthz'], aggregatedClusterRole],
    [['create', 'priorityclass', 'p', '--value=1000', '--description=hi'], priorityClass],
    [['create', 'poddisruptionbudget', 'pdb', '--selector=app=web', '--min-available=50%'], podDisruptionBudget],
    [['create', 'ingress', 'ing', '--rule=shop.example.com/*=web:80,tls=shop-tls'], ingress],
  ] as const) {
    it(`kubectl ${args.join(' ')}`, async () => {
      received = answered = undefined;
      answer = () => stored;
      try {
        const printed = await kubectl(args, ['--show-managed-fields']);
        assert.deepStrictEqual(received, await kubectl(args, ['--dry-run=client']));
        assert.deepStrictEqual(printed, stored);
      } finally {
        answer = undefined;
      }
    });
  }

  it('kubectl auth can-i create pods (SelfSubjectAccessReview)', async () => {
    answer = (req) => ({ ...req, status: { allowed: true, reason: 'RBAC: allowed' } });
    try {
      assert.equal((await kubectlRaw(['auth', 'can-i', 'create', 'pods'])).trim(), 'yes');
      assert.deepStrictEqual(received, {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        metadata: { creationTimestamp: null },
        spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
        status: { allowed: false },
      });
    } finally {
      answer = undefined;
    }
  });

  it('kubectl create token (TokenRequest)', async () => {
    answer = (req) => ({ ...req, status: { token: 'tok.en', expirationTimestamp: '2030-01-01T00:00:00Z' } });
    try {
      assert.equal((await kubectlRaw(['create', 'token', 'sa1', '--audience=api', '--duration=1h'])).trim(), 'tok.en');
      assert.deepStrictEqual(received?.spec, { audiences: ['api'], expirationSeconds: 3600, boundObjectRef: null });
    } finally {
      answer = undefined;
    }
  });
});
