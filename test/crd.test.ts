// Custom resources end to end with kubectl 1.33 and 1.27: an operator-style CRD (two versions, status and
// scale subresources, printer columns, defaults) applied and Established within a second, its
// instances created, listed, watched, patched, applied, printed, validated, defaulted, pruned and
// scaled; the CRD's deletion removes its instances and its endpoints.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { request } from './helpers/cluster.js';
import { kubectlWorkspace, parseTable, rowNamed } from './helpers/kubectl.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: databases.db.example.com
spec:
  group: db.example.com
  scope: Namespaced
  names:
    plural: databases
    singular: database
    kind: Database
    shortNames: [dbs]
    categories: [all-dbs]
  versions:
  - name: v1beta1
    served: true
    storage: false
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale:
        specReplicasPath: .spec.replicas
        statusReplicasPath: .status.replicas
        labelSelectorPath: .status.selector
    additionalPrinterColumns:
    - name: Engine
      type: string
      jsonPath: .spec.engine
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Ready
      type: string
      jsonPath: .status.conditions[?(@.type=="Ready")].status
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
    schema:
      openAPIV3Schema:
        type: object
        required: [spec]
        properties:
          spec:
            type: object
            required: [engine]
            properties:
              engine:
                type: string
                enum: [postgres, mysql]
              version:
                type: string
                pattern: '^[0-9]+(\\.[0-9]+)*$'
              replicas:
                type: integer
                minimum: 0
                maximum: 9
                default: 1
              storage:
                type: object
                properties:
                  size:
                    x-kubernetes-int-or-string: true
                  class:
                    type: string
                    default: standard
              users:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    role: {type: string}
              extra:
                type: object
                x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            properties:
              replicas: {type: integer}
              selector: {type: string}
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
`;

const DB = (name: string, extra = '') => `apiVersion: db.example.com/v1
kind: Database
metadata:
  name: ${name}
spec:
  engine: postgres
  version: "16.2"
  extra:
    anything: kept
${extra}`;

for (const version of ['1.33', '1.27'])
  describe(`custom resources with kubectl ${version}`, () => {
    const ws = kubectlWorkspace({ storageBackend: 'memory', kubernetesCompat: true });
    const kubectl = ws.kubectl(version);
    const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      request(ws.cluster, method, path, { body: body as object, headers });
    const BASE = '/apis/db.example.com/v1/namespaces/default/databases';

    it('applies the CRD and it becomes Established within a second', async () => {
      assert.match(
        await kubectl.ok(['apply', '-f', await ws.file('crd.yaml', CRD)]),
        /customresourcedefinition.apiextensions.k8s.io\/databases.db.example.com created/,
      );
      await kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.db.example.com', '--timeout=5s']);
      const crd = JSON.parse(await kubectl.ok(['get', 'crd', 'databases.db.example.com', '-o', 'json']));
      const conditions = Object.fromEntries(crd.status.conditions.map((c: any) => [c.type, c]));
      // Within a second as the server tells it (its timestamps have whole seconds): kubectl's own
      // start-up on a busy machine is not the server's delay.
      const establishedAfter = Date.parse(conditions.Established.lastTransitionTime) - Date.parse(crd.metadata.creationTimestamp);
      assert.ok(establishedAfter <= 1000, `established ${establishedAfter} ms after creation`);
      assert.equal(conditions.NamesAccepted.status, 'True');
      assert.equal(conditions.NamesAccepted.reason, 'NoConflicts');
      assert.equal(conditions.NamesAccepted.message, 'no conflicts found');
      assert.equal(conditions.Established.reason, 'InitialNamesAccepted');
      assert.deepEqual(crd.status.acceptedNames, {
        plural: 'databases',
        singular: 'database',
        shortNames: ['dbs'],
        kind: 'Database',
        listKind: 'DatabaseList',
        categories: ['all-dbs'],
      });
      assert.deepEqual(crd.status.storedVersions, ['v1']);
      const health = await call('GET', '/readyz?verbose');
      for (const hook of ['start-apiextensions-informers', 'start-apiextensions-controllers', 'crd-informer-synced']) {
        assert.match(health.text, new RegExp(`\\[\\+\\]poststarthook/${hook} ok`));
      }
    });

    it('creates instances with defaults applied and unknown fields pruned', async () => {
      assert.match(await kubectl.ok(['apply', '-f', await ws.file('a.yaml', DB('alpha'))]), /database.db.example.com\/alpha created/);
      // kubectl validates strictly on the server: an unknown field is refused there.
      const unknown = await kubectl.run(['apply', '-f', await ws.file('u.yaml', DB('unknown', '  unknownField: x\n'))]);
      assert.match(unknown.stderr, /strict decoding error: unknown field "spec.unknownField"/);
      // Without Strict it is pruned, with a warning.
      const warned = await call('POST', BASE, {
        apiVersion: 'db.example.com/v1',
        kind: 'Database',
        metadata: { name: 'warned' },
        spec: { engine: 'mysql', unknownField: 1 },
      });
      assert.equal(warned.status, 201);
      assert.equal(warned.json.spec.unknownField, undefined);
      assert.match(String(warned.headers.warning), /299 - "unknown field \\"spec.unknownField\\""/);
      assert.equal((await call('DELETE', `${BASE}/warned`)).status, 200);
      const strict = await call('POST', `${BASE}?fieldValidation=Strict`, {
        apiVersion: 'db.example.com/v1',
        kind: 'Database',
        metadata: { name: 'strict' },
        spec: { engine: 'mysql', bogus: 1 },
      });
      assert.equal(strict.status, 400);
      assert.equal(strict.json.message, 'Database in version "v1" cannot be handled as a Database: strict decoding error: unknown field "spec.bogus"');
      const a = JSON.parse(await kubectl.ok(['get', 'database', 'alpha', '-o', 'json']));
      assert.equal(a.spec.replicas, 1);
      assert.equal(a.spec.unknownField, undefined);
      assert.deepEqual(a.spec.extra, { anything: 'kept' });
      assert.equal(a.metadata.generation, 1);
      await kubectl.ok(['apply', '-f', await ws.file('b.yaml', DB('beta', '  storage:\n    size: 10\n'))]);
      const b = JSON.parse(await kubectl.ok(['get', 'dbs', 'beta', '-o', 'json']));
      assert.deepEqual(b.spec.storage, { size: 10, class: 'standard' });
    });

    it('prints the declared columns', async () => {
      await call(
        'PATCH',
        `${BASE}/alpha/status`,
        { status: { conditions: [{ type: 'Ready', status: 'True' }] } },
        { 'content-type': 'application/merge-patch+json' },
      );
      const { header, rows } = parseTable(await kubectl.ok(['get', 'databases']));
      assert.deepEqual(header, ['NAME', 'ENGINE', 'REPLICAS', 'READY', 'AGE']);
      const alpha = rowNamed(rows, 'alpha');
      assert.deepEqual(alpha?.slice(0, 4), ['alpha', 'postgres', '1', 'True']);
      assert.match(alpha?.[4] ?? '', /^\d+s$/);
      // A column whose path finds nothing has no cell (null), which kubectl prints blank.
      const table = (await call('GET', BASE, undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).json;
      const beta = table.rows.find((r: any) => r.cells[0] === 'beta');
      assert.deepEqual(beta.cells.slice(0, 4), ['beta', 'postgres', 1, null]);
      assert.deepEqual(
        table.columnDefinitions.map((c: any) => [c.name, c.type]),
        [
          ['Name', 'string'],
          ['Engine', 'string'],
          ['Replicas', 'integer'],
          ['Ready', 'string'],
          ['Age', 'date'],
        ],
      );
      // The category lists it too.
      assert.match(await kubectl.ok(['get', 'all-dbs']), /alpha/);
    });

    it('refuses a wrong type with upstream 422 message', async () => {
      const r = await call('POST', BASE, {
        apiVersion: 'db.example.com/v1',
        kind: 'Database',
        metadata: { name: 'bad' },
        spec: { engine: 'postgres', replicas: 'three' },
      });
      assert.equal(r.status, 422);
      assert.equal(
        r.json.message,
        'Database.db.example.com "bad" is invalid: spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"',
      );
      const many = await call('POST', BASE, {
        apiVersion: 'db.example.com/v1',
        kind: 'Database',
        metadata: { name: 'bad' },
        spec: { engine: 'oracle', version: 'x', replicas: 12 },
      });
      assert.equal(many.status, 422);
      assert.deepEqual(many.json.details.causes.map((c: any) => `${c.field}: ${c.message}`).sort(), [
        'spec.engine: Unsupported value: "oracle": supported values: "postgres", "mysql"',
        'spec.replicas: Invalid value: 12: spec.replicas in body should be less than or equal to 9',
        'spec.version: Invalid value: "x": spec.version in body should match \'^[0-9]+(\\.[0-9]+)*$\'',
      ]);
      const missing = await call('POST', BASE, { apiVersion: 'db.example.com/v1', kind: 'Database', metadata: { name: 'bad' }, spec: {} });
      assert.equal(missing.json.message, 'Database.db.example.com "bad" is invalid: spec.engine: Required value');
      const out = await kubectl.run(['apply', '-f', await ws.file('bad.yaml', DB('gamma', '  replicas: -1\n'))]);
      assert.notEqual(out.code, 0);
      assert.match(out.stderr, /spec.replicas: Invalid value: -1: spec.replicas in body should be greater than or equal to 0/);
    });

    it('patches with merge and JSON patch, refuses strategic merge patch, applies server-side', async () => {
      await kubectl.ok(['patch', 'database', 'alpha', '--type=merge', '-p', '{"spec":{"version":"17"}}']);
      await kubectl.ok(['patch', 'database', 'alpha', '--type=json', '-p', '[{"op":"replace","path":"/spec/engine","value":"mysql"}]']);
      const smp = await kubectl.run(['patch', 'database', 'alpha', '-p', '{"spec":{"version":"18"}}']);
      assert.notEqual(smp.code, 0);
      assert.match(smp.stderr, /application\/strategic-merge-patch\+json is not supported by db.example.com\/v1, Kind=Database/);
      const ssa = `apiVersion: db.example.com/v1
kind: Database
metadata:
  name: alpha
spec:
  engine: mysql
  users:
  - name: admin
    role: owner
`;
      await kubectl.ok(['apply', '--server-side', '-f', await ws.file('ssa.yaml', ssa)]);
      const other = `apiVersion: db.example.com/v1
kind: Database
metadata:
  name: alpha
spec:
  users:
  - name: reader
    role: read
`;
      await kubectl.ok(['apply', '--server-side', '--field-manager=other', '-f', await ws.file('ssa2.yaml', other)]);
      const a = JSON.parse(await kubectl.ok(['get', 'database', 'alpha', '-o', 'json']));
      assert.equal(a.spec.version, '17');
      assert.equal(a.spec.engine, 'mysql');
      // A map-type list merges both managers' entries by key.
      assert.deepEqual(a.spec.users.map((u: any) => u.name).sort(), ['admin', 'reader']);
      assert.equal(a.metadata.generation > 1, true);
    });

    it('scales through the scale subresource', async () => {
      await call('PATCH', `${BASE}/alpha/status`, { status: { replicas: 1, selector: 'app=alpha' } }, { 'content-type': 'application/merge-patch+json' });
      assert.match(await kubectl.ok(['scale', 'database', 'alpha', '--replicas=3']), /database.db.example.com\/alpha scaled/);
      const scale = (await call('GET', `${BASE}/alpha/scale`)).json;
      assert.deepEqual(scale.spec, { replicas: 3 });
      assert.deepEqual(scale.status, { replicas: 1, selector: 'app=alpha' });
      assert.equal(scale.kind, 'Scale');
      const a = (await call('GET', `${BASE}/alpha`)).json;
      assert.equal(a.spec.replicas, 3);
    });

    it('serves the deprecated version converted, with its warning', async () => {
      const r = await call('GET', '/apis/db.example.com/v1beta1/namespaces/default/databases/alpha');
      assert.equal(r.status, 200);
      assert.equal(r.json.apiVersion, 'db.example.com/v1beta1');
      assert.equal(r.json.spec.engine, 'mysql');
      assert.match(String(r.headers.warning), /299 - "db.example.com\/v1beta1 Database is deprecated"/);
    });

    it('lists with field selectors and refuses Protobuf', async () => {
      const list = (await call('GET', `${BASE}?fieldSelector=metadata.name%3Dbeta`)).json;
      assert.equal(list.kind, 'DatabaseList');
      assert.deepEqual(
        list.items.map((i: any) => i.metadata.name),
        ['beta'],
      );
      const pb = await call('GET', `${BASE}/alpha`, undefined, { accept: 'application/vnd.kubernetes.protobuf' });
      assert.equal(pb.status, 406);
      const pbBody = await call('POST', BASE, Buffer.from([0x6b, 0x38, 0x73, 0x00]), { 'content-type': 'application/vnd.kubernetes.protobuf' });
      assert.equal(pbBody.status, 415);
      assert.equal(pbBody.json.message, 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
      // A client that prefers Protobuf but takes JSON gets JSON.
      const either = await call('GET', `${BASE}/alpha`, undefined, { accept: 'application/vnd.kubernetes.protobuf, application/json' });
      assert.equal(either.status, 200);
      assert.equal(either.json.metadata.name, 'alpha');
      const v2 = (await call('GET', '/openapi/v2')).json;
      assert.equal(v2.definitions['com.example.db.v1.Database'].properties.spec.properties.replicas.type, 'integer');
      assert.ok(v2.paths['/apis/db.example.com/v1/namespaces/{namespace}/databases/{name}/scale']);
    });

    it('watches instances', async () => {
      const watch = kubectl.start(['get', 'databases', '--watch', '--output-watch-events']);
      await watch.waitForLine('stdout', /ADDED\s+alpha/, 10_000);
      await kubectl.ok(['apply', '-f', await ws.file('c.yaml', DB('gamma'))]);
      await watch.waitForLine('stdout', /ADDED\s+gamma/, 10_000);
      await watch.stop();
    });

    it('explains the custom kind from its published schema', async () => {
      const out = await kubectl.ok(['explain', 'databases.spec.replicas']);
      assert.match(out, /replicas\s+<integer>/);
    });

    it('deleting the CRD removes its instances and its endpoints', async () => {
      await kubectl.ok(['delete', 'crd', 'databases.db.example.com', '--timeout=10s']);
      const gone = await call('GET', BASE);
      assert.equal(gone.status, 404);
      const groups = (await call('GET', '/apis')).json;
      assert.equal(
        groups.groups.some((g: any) => g.name === 'db.example.com'),
        false,
      );
      // Recreated, it starts empty: the old instances were removed, not orphaned.
      await kubectl.ok(['apply', '-f', await ws.file('crd.yaml', CRD)]);
      await kubectl.ok(['wait', '--for=condition=Established', 'crd/databases.db.example.com', '--timeout=5s']);
      const list = (await call('GET', BASE)).json;
      assert.deepEqual(list.items, []);
    });
  });
