// Real kubectl (oldest and newest on the machine) using orch's OpenAPI documents: explain (v3 and
// v2), create with validation on (server-side field validation found through OpenAPI), and
// client-side apply computing strategic merge patches from the published patch metadata.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { kubectlWorkspace } from './helpers/kubectl.js';

const DEPLOYMENT = (name: string, replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: default
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: nginx
`;

for (const version of ['1.33', '1.27']) {
  for (const compat of [false, true]) {
    const domain = compat ? 'k8s.io' : 'orch.io';
    describe(`kubectl ${version} with OpenAPI (${compat ? '--kubernetes-compat' : 'orch names'})`, () => {
      const ws = kubectlWorkspace({ kubernetesCompat: compat });
      const k = ws.kubectl(version);

      it('explain pod.spec.containers prints the fields with their descriptions (OpenAPI v3)', async () => {
        const out = await k.ok(['explain', 'pod.spec.containers']);
        assert.match(out, /^KIND:\s+Pod$/m);
        assert.match(out, /^VERSION:\s+v1$/m);
        assert.match(out, /^FIELD: containers <\[\]Container>$/m);
        assert.match(out, /List of containers belonging to the pod\./);
        assert.match(out, /^ {2}image\t<string>$/m);
        assert.match(out, /^ {4}Container image name\./m);
        assert.match(out, /^ {2}name\t<string> -required-$/m);
        assert.match(out, /^ {2}ports\t<\[\]ContainerPort>$/m);
      });

      it('explain from the OpenAPI v2 Protocol Buffers document', async () => {
        const out = await k.ok(['explain', 'pod.spec.containers', '--output=plaintext-openapiv2']);
        assert.match(out, /^RESOURCE: containers <\[\]Object>$/m);
        assert.match(out, /^ {3}image\t<string>$/m);
        assert.match(out, /Container image name\./);
      });

      it('explain a branded group’s kind names the group as served', async () => {
        const out = await k.ok(['explain', 'events', `--api-version=events.${domain}/v1`]);
        assert.match(out, new RegExp(`^GROUP:\\s+events\\.${domain.replace('.', '\\.')}$`, 'm'));
        assert.match(out, /^KIND:\s+Event$/m);
        assert.match(out, /Event is a report of an event somewhere in the cluster\./);
      });

      it('create -f with validation on: server-side field validation, found through /openapi/v3', async () => {
        const file = await ws.file(
          'create.yaml',
          `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: validated\n  namespace: default\ndata:\n  a: "1"\n---\n${DEPLOYMENT('validated', 1)}`,
        );
        const r = await k.run(['create', '-f', file, '-v=6']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /configmap\/validated created/);
        assert.match(r.stdout, /deployment\.apps\/validated created/);
        // kubectl logs requests as `GET <url> 200 OK` (1.27) or `verb="GET" url="<url>" status="200 OK"` (1.33).
        assert.match(r.stderr, /\/openapi\/v3\/apis\/apps\/v1\?hash=[0-9A-F]{128}[^ ]*"? (status=")?200 OK/);
        assert.match(r.stderr, /\/apis\/apps\/v1\/namespaces\/default\/deployments\?[^ ]*fieldValidation=Strict/);
      });

      it('--validate=strict rejects a manifest with an unknown field, with upstream’s message', async () => {
        const file = await ws.file('unknown.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: unknown-field\n  namespace: default\nbogus: true\n');
        const r = await k.run(['create', '--validate=strict', '-f', file]);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /strict decoding error: unknown field "bogus"/);
        assert.notEqual((await k.run(['get', 'cm', 'unknown-field', '-n', 'default'])).code, 0);
      });

      it('apply computes a strategic merge patch from the published patch metadata, also for a branded group', async () => {
        const role = (verbs: string) =>
          `apiVersion: rbac.authorization.${domain}/v1\nkind: Role\nmetadata:\n  name: reader\n  namespace: default\nrules:\n- apiGroups: [""]\n  resources: ["pods"]\n  verbs: [${verbs}]\n`;
        assert.match(
          await k.ok(['apply', '-f', await ws.file('apply1.yaml', `${role('"get"')}---\n${DEPLOYMENT('applied', 1)}`)]),
          /role\.rbac\.authorization\.[a-z0-9.]+\/reader created/,
        );
        const r = await k.run(['apply', '-f', await ws.file('apply2.yaml', `${role('"get", "list"')}---\n${DEPLOYMENT('applied', 2)}`), '-v=8']);
        assert.equal(r.code, 0, r.stderr);
        assert.match(r.stdout, /role\.rbac\.authorization\.[a-z0-9.]+\/reader configured/);
        assert.match(r.stdout, /deployment\.apps\/applied configured/);
        assert.doesNotMatch(r.stderr, /error calculating patch from openapi/);
        const patchTypes = [...r.stderr.matchAll(/Content-Type: (application\/[a-z-]+\+json)/g)].map((m) => m[1]);
        assert.deepEqual(patchTypes, ['application/strategic-merge-patch+json', 'application/strategic-merge-patch+json']);
        const got = JSON.parse(await k.ok(['get', 'role', 'reader', '-n', 'default', '-o', 'json']));
        assert.deepEqual(got.rules[0].verbs, ['get', 'list']);
      });
    });
  }
}
