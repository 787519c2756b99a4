// kubectl 1.27 and 1.33, validation on, against orch: what users do every day must look and
// behave as against upstream (issue 4, "Tested with real clients"). One cluster per naming mode;
// the two kubectl versions run side by side on it, each in namespaces of its own.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from './helpers/cluster.js';
import { cells, kubectlWorkspace, lastApplied, LAST_APPLIED, parseTable, ref, requestUrls, rowNamed } from './helpers/kubectl.js';
import {
  createObject,
  eventAbout,
  mergePatch,
  objectPath,
  parseManifests,
  pod,
  readObject,
  renderFixture,
  rfc3339,
  writeFixture,
} from './helpers/manifests.js';
import { UPSTREAM_COLUMNS } from './helpers/upstream-columns.js';
import { brandFor } from '../src/machinery/brand.js';

const VERSIONS = ['1.27', '1.33'];
const NODE = 'fid-node';
/** Every object here is seconds old; kubectl prints such ages as `<n>s`. */
const AGE = /^\d+s$/;
const WORKLOADS = 'fidelity/workloads.yaml';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until check() holds; fails after timeoutMs. */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await delay(50);
  }
}

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('kubectl fidelity', { concurrency: true }, () => {
  describe('orch names', { concurrency: true }, () => {
    const brand = brandFor(false);
    const ws = kubectlWorkspace();

    before(async () => {
      const [node] = parseManifests(await renderFixture('fidelity/node.yaml', { name: NODE, labelDomain: brand.labelDomain, now: rfc3339() }));
      await createObject(ws.cluster, node);
      // The kubelet records node events in `default`, naming the node by name in place of its uid.
      await createObject(
        ws.cluster,
        eventAbout(
          'default',
          `${NODE}.ready`,
          { kind: 'Node', name: NODE, uid: NODE },
          {
            type: 'Normal',
            reason: 'NodeReady',
            message: `Node ${NODE} status is now: NodeReady`,
            component: 'kubelet',
          },
        ),
      );
    });

    for (const version of VERSIONS) {
      describe(`kubectl ${version}`, { concurrency: 1 }, () => {
        const v = version.replace('.', '');
        /** Objects made through the API (not kubectl) for the read-only commands. */
        const seedNs = `seed-${v}`;
        const k = ws.kubectl(version);

        before(async () => {
          const seeded: any[] = [];
          for (const doc of parseManifests(await renderFixture(WORKLOADS, { ns: seedNs, domain: brand.domain }))) {
            seeded.push(await createObject(ws.cluster, doc));
          }
          seeded.push(
            await createObject(
              ws.cluster,
              pod(seedNs, 'bound', {
                nodeName: NODE,
                containers: [{ name: 'main', image: 'busybox:1.36', resources: { requests: { cpu: '100m', memory: '32Mi' } } }],
              }),
            ),
          );
          const standalone = seeded.find((o) => o.kind === 'Pod' && o.metadata.name === 'standalone');
          await createObject(
            ws.cluster,
            eventAbout(
              seedNs,
              'standalone.scheduling',
              { kind: 'Pod', apiVersion: 'v1', namespace: seedNs, name: 'standalone', uid: standalone.metadata.uid, fieldPath: 'spec.containers{main}' },
              {
                type: 'Warning',
                reason: 'FailedScheduling',
                message: "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.",
                component: 'default-scheduler',
              },
            ),
          );
        });

        it('create -f creates every object of a multi-document manifest, asking for strict field validation', async () => {
          const ns = `create-${v}`;
          const file = await writeFixture(WORKLOADS, { ns, domain: brand.domain }, ws.dir, `create-${v}.yaml`);
          const docs = parseManifests(await renderFixture(WORKLOADS, { ns, domain: brand.domain }));
          const r = await k.run(['create', '-f', file, '-v=6']);
          assert.equal(r.code, 0, r.stderr);
          assert.deepEqual(
            lines(r.stdout),
            docs.map((d) => `${ref(d)} created`),
          );
          const posts = requestUrls(r.stderr, 'POST');
          assert.equal(posts.length, docs.length, r.stderr);
          for (const url of posts) assert.match(url, /[?&]fieldValidation=Strict(&|$)/);
          for (const doc of docs) assert.equal((await readObject(ws.cluster, doc)).metadata.name, doc.metadata.name);
        });

        it('apply -f creates, then applying one changed field patches only that field', async () => {
          const ns = `apply-${v}`;
          const original = await renderFixture(WORKLOADS, { ns, domain: brand.domain });
          const changed = original.replace('image: nginx:1.25', 'image: nginx:1.26');
          assert.notEqual(changed, original);
          const docs = parseManifests(original);
          const deployment = docs.find((d) => d.kind === 'Deployment');
          const firstFile = await ws.file(`apply-${v}.yaml`, original);
          const secondFile = await ws.file(`apply-${v}-changed.yaml`, changed);

          const first = await k.run(['apply', '-f', firstFile]);
          assert.equal(first.code, 0, first.stderr);
          assert.equal(first.stderr, '');
          assert.deepEqual(
            lines(first.stdout),
            docs.map((d) => `${ref(d)} created`),
          );
          const applied = await readObject(ws.cluster, deployment);
          assert.deepEqual(JSON.parse(applied.metadata.annotations[LAST_APPLIED]), lastApplied(deployment));

          // Someone else's change: a patch keeps it, a replace would drop it.
          const live = await mergePatch(ws.cluster, deployment, { metadata: { annotations: { 'fidelity.test/owner': 'ops' } } });
          const versionsBefore = new Map<string, string>();
          for (const d of docs) versionsBefore.set(ref(d), (await readObject(ws.cluster, d)).metadata.resourceVersion);

          const second = await k.run(['apply', '-f', secondFile]);
          assert.equal(second.code, 0, second.stderr);
          assert.equal(second.stderr, '');
          assert.deepEqual(
            lines(second.stdout),
            docs.map((d) => `${ref(d)} ${d.kind === 'Deployment' ? 'configured' : 'unchanged'}`),
          );

          const patched = await readObject(ws.cluster, deployment);
          assert.equal(patched.spec.template.spec.containers[0].image, 'nginx:1.26');
          assert.notEqual(patched.metadata.resourceVersion, live.metadata.resourceVersion);
          assert.equal(patched.metadata.generation, live.metadata.generation + 1);
          assert.equal(patched.metadata.annotations['fidelity.test/owner'], 'ops');
          assert.deepEqual(JSON.parse(patched.metadata.annotations[LAST_APPLIED]), lastApplied(parseManifests(changed).find((d) => d.kind === 'Deployment')));
          // Nothing else moved: the same object once the applied change and its bookkeeping are set aside.
          const rest = (o: any) => {
            const c = structuredClone(o);
            for (const field of ['resourceVersion', 'generation', 'managedFields']) delete c.metadata[field];
            delete c.metadata.annotations[LAST_APPLIED];
            delete c.spec.template.spec.containers[0].image;
            return c;
          };
          assert.deepEqual(rest(patched), rest(live));
          // Objects reported unchanged were not written.
          for (const d of docs.filter((x) => x.kind !== 'Deployment')) {
            assert.equal((await readObject(ws.cluster, d)).metadata.resourceVersion, versionsBefore.get(ref(d)), `${ref(d)} was written`);
          }
        });

        /** `get <resource>` and `get <resource> -o wide`, each parsed. */
        const getBoth = async (...args: string[]) => {
          const [normal, wide] = await Promise.all([k.ok(['get', ...args]), k.ok(['get', ...args, '-o', 'wide'])]);
          return { normal: parseTable(normal), wide: parseTable(wide) };
        };
        const assertRow = (row: string[] | undefined, expected: Array<string | RegExp>, what: string) => {
          assert.ok(row, `${what}: no such row`);
          assert.equal(row.length, expected.length, `${what}: ${JSON.stringify(row)}`);
          expected.forEach((e, i) => {
            if (typeof e === 'string') assert.equal(row[i], e, `${what}, column ${i}: ${JSON.stringify(row)}`);
            else assert.match(row[i], e, `${what}, column ${i}: ${JSON.stringify(row)}`);
          });
        };

        it('get pods prints upstream columns (and -o wide its wide ones)', async () => {
          const { normal, wide } = await getBoth('pods', '-n', seedNs);
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.pods.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.pods.wide);
          assertRow(rowNamed(normal.rows, 'standalone'), ['standalone', '0/1', 'Pending', '0', AGE], 'pod standalone');
          assertRow(
            rowNamed(wide.rows, 'standalone'),
            ['standalone', '0/1', 'Pending', '0', AGE, '<none>', '<none>', '<none>', '<none>'],
            'wide pod standalone',
          );
          assertRow(rowNamed(wide.rows, 'bound'), ['bound', '0/1', 'Pending', '0', AGE, '<none>', NODE, '<none>', '<none>'], 'wide pod bound');
        });

        it('get deployments prints upstream columns (and -o wide its wide ones)', async () => {
          const { normal, wide } = await getBoth('deployments', '-n', seedNs);
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.deployments.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.deployments.wide);
          assertRow(rowNamed(normal.rows, 'web'), ['web', '0/2', '0', '0', AGE], 'deployment web');
          assertRow(rowNamed(wide.rows, 'web'), ['web', '0/2', '0', '0', AGE, 'nginx,sidecar', 'nginx:1.25,busybox:1.36', 'app=web'], 'wide deployment web');
        });

        it('get services prints upstream columns (and -o wide its wide ones)', async () => {
          const { normal, wide } = await getBoth('services', '-n', seedNs);
          const svc = await readObject(ws.cluster, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: seedNs } });
          const clusterIP = svc.spec.clusterIP || '<none>';
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.services.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.services.wide);
          assertRow(rowNamed(normal.rows, 'web'), ['web', 'ClusterIP', clusterIP, '<none>', '80/TCP', AGE], 'service web');
          assertRow(rowNamed(wide.rows, 'web'), ['web', 'ClusterIP', clusterIP, '<none>', '80/TCP', AGE, 'app=web'], 'wide service web');
        });

        it('get nodes prints upstream columns (and -o wide its wide ones)', async () => {
          const { normal, wide } = await getBoth('nodes');
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.nodes.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.nodes.wide);
          assertRow(rowNamed(normal.rows, NODE), [NODE, 'Ready', '<none>', AGE, 'v1.25.3'], 'node');
          assertRow(
            rowNamed(wide.rows, NODE),
            [NODE, 'Ready', '<none>', AGE, 'v1.25.3', '10.0.0.11', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.1.0-18-amd64', 'containerd://1.7.13'],
            'wide node',
          );
        });

        it('get events prints upstream columns (and -o wide its wide ones)', async () => {
          const { normal, wide } = await getBoth('events', '-n', seedNs);
          const message = "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.";
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.events.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.events.wide);
          assertRow(
            normal.rows.find((r) => r[3] === 'pod/standalone'),
            [AGE, 'Warning', 'FailedScheduling', 'pod/standalone', message],
            'event',
          );
          assertRow(
            wide.rows.find((r) => r[3] === 'pod/standalone'),
            [AGE, 'Warning', 'FailedScheduling', 'pod/standalone', 'spec.containers{main}', 'default-scheduler', message, AGE, '1', 'standalone.scheduling'],
            'wide event',
          );
        });

        it('get namespaces prints upstream columns', async () => {
          const { normal, wide } = await getBoth('namespaces', seedNs);
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.namespaces.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.namespaces.wide);
          assertRow(rowNamed(normal.rows, seedNs), [seedNs, 'Active', AGE], 'namespace');
        });

        it('get configmaps prints upstream columns', async () => {
          const { normal, wide } = await getBoth('configmaps', '-n', seedNs);
          assert.deepEqual(normal.header, UPSTREAM_COLUMNS.configmaps.normal);
          assert.deepEqual(wide.header, UPSTREAM_COLUMNS.configmaps.wide);
          assertRow(rowNamed(normal.rows, 'app-config'), ['app-config', '2', AGE], 'configmap');
        });

        it('get -w prints a row for each change of a watched pod', async () => {
          const watch = k.start(['get', 'pods', '-n', seedNs, '-w'], { timeoutMs: 25_000 });
          try {
            assert.deepEqual(cells(await watch.waitForLine('stdout', /^NAME\s/, 10_000)), UPSTREAM_COLUMNS.pods.normal);
            await watch.waitForLine('stdout', /^standalone\s/, 5_000);
            const watched = await createObject(ws.cluster, pod(seedNs, 'watched'));
            const added = cells(await watch.waitForLine('stdout', /^watched\s/, 10_000));
            assert.deepEqual(added.slice(0, 4), ['watched', '0/1', 'Pending', '0']);
            assert.match(added[4], AGE);
            await mergePatch(ws.cluster, watched, { metadata: { labels: { stage: 'two' } } });
            assert.deepEqual(cells(await watch.waitForLine('stdout', /^watched\s/, 10_000, 2)).slice(0, 4), ['watched', '0/1', 'Pending', '0']);
          } finally {
            await watch.stop();
          }
        });

        it('describe pod shows its sections and its events', async () => {
          const out = await k.ok(['describe', 'pod', 'standalone', '-n', seedNs]);
          for (const re of [
            /^Name:\s+standalone$/m,
            new RegExp(`^Namespace:\\s+${seedNs}$`, 'm'),
            // The Priority admission step resolves the class named in the manifest.
            /^Priority:\s+100000$/m,
            new RegExp(`^Priority Class Name:\\s+${seedNs}-high$`, 'm'),
            /^Node:\s+<none>$/m,
            /^Labels:\s+app=standalone$/m,
            /^Status:\s+Pending$/m,
            /^Containers:\n {2}main:\n {4}Image:\s+busybox:1\.36$/m,
            /^ {4}Command:\n {6}sleep\n {6}3600$/m,
            /^ {4}Limits:\n {6}cpu:\s+100m$/m,
            /^ {4}Requests:\n {6}cpu:\s+50m$/m,
            /^QoS Class:\s+Burstable$/m,
            /^Events:\n {2}Type\s+Reason\s+Age\s+From\s+Message\n {2}----\s+------\s+----\s+----\s+-------$/m,
            /^ {2}Warning\s+FailedScheduling\s+\d+s\s+default-scheduler\s+0\/1 nodes are available: 1 node\(s\) didn't match Pod's node affinity\/selector\.$/m,
          ]) {
            assert.match(out, re);
          }
        });

        it('describe node shows conditions, addresses, capacity, system info, its pods and its events', async () => {
          const out = await k.ok(['describe', 'node', NODE]);
          for (const re of [
            new RegExp(`^Name:\\s+${NODE}$`, 'm'),
            /^Roles:\s+<none>$/m,
            new RegExp(`^Labels:\\s+${brand.labelDomain}/arch=amd64$`, 'm'),
            /^Taints:\s+<none>$/m,
            /^Unschedulable:\s+false$/m,
            /^Conditions:\n {2}Type\s+Status\s+LastHeartbeatTime\s+LastTransitionTime\s+Reason\s+Message$/m,
            /^ {2}Ready\s+True\s+.+\s+KubeletReady\s+kubelet is posting ready status$/m,
            new RegExp(`^Addresses:\\n {2}InternalIP:\\s+10\\.0\\.0\\.11\\n {2}Hostname:\\s+${NODE}$`, 'm'),
            /^Capacity:\n {2}cpu:\s+4\n {2}ephemeral-storage:\s+100Gi\n {2}memory:\s+8Gi\n {2}pods:\s+110$/m,
            /^System Info:$/m,
            /^ {2}Kernel Version:\s+6\.1\.0-18-amd64$/m,
            /^ {2}OS Image:\s+Debian GNU\/Linux 12 \(bookworm\)$/m,
            /^ {2}Container Runtime Version:\s+containerd:\/\/1\.7\.13$/m,
            /^ {2}Kubelet Version:\s+v1\.25\.3$/m,
            /^PodCIDR:\s+10\.244\.1\.0\/24$/m,
            /^Non-terminated Pods:\s+\(\d+ in total\)$/m,
            new RegExp(`^ {2}${seedNs}\\s+bound\\s+100m \\(2%\\)\\s+0 \\(0%\\)\\s+32Mi \\(0%\\)\\s+0 \\(0%\\)\\s+\\d+s$`, 'm'),
            /^Allocated resources:$/m,
            new RegExp(`^ {2}Normal\\s+NodeReady\\s+\\d+s\\s+kubelet\\s+Node ${NODE} status is now: NodeReady$`, 'm'),
          ]) {
            assert.match(out, re);
          }
        });

        it('describe namespace shows its labels, status, quotas and limit ranges', async () => {
          // Upstream's namespace describer prints no events (pkg/describe NamespaceDescriber).
          const out = await k.ok(['describe', 'namespace', seedNs]);
          for (const re of [
            new RegExp(`^Name:\\s+${seedNs}$`, 'm'),
            // The server labels every namespace with its name.
            new RegExp(`^Labels:\\s+${brand.labelDomain}/metadata\\.name=${seedNs}\\n\\s+team=fidelity$`, 'm'),
            /^Annotations:\s+<none>$/m,
            /^Status:\s+Active$/m,
            /^No resource quota\.$/m,
            /^No LimitRange resource\.$/m,
          ]) {
            assert.match(out, re);
          }
        });

        it('explain pod.spec.containers documents the field from the OpenAPI v3 schema', async () => {
          const out = await k.ok(['explain', 'pod.spec.containers']);
          assert.doesNotMatch(out, /^GROUP:/m);
          for (const re of [
            /^KIND:\s+Pod$/m,
            /^VERSION:\s+v1$/m,
            /^FIELD: containers <\[\]Container>$/m,
            /^DESCRIPTION:\n {4}List of containers belonging to the pod\./m,
            /^FIELDS:$/m,
            /^ {2}env\t<\[\]EnvVar>$/m,
            /^ {2}image\t<string>$/m,
            /^ {2}name\t<string> -required-$/m,
            /^ {2}ports\t<\[\]ContainerPort>$/m,
            /^ {2}resources\t<ResourceRequirements>$/m,
          ]) {
            assert.match(out, re);
          }
        });

        it('label and annotate change the object', async () => {
          const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: seedNs } };
          assert.equal(await k.ok(['label', 'service', 'web', 'tier=frontend', '-n', seedNs]), 'service/web labeled\n');
          assert.equal((await readObject(ws.cluster, svc)).metadata.labels?.tier, 'frontend');
          assert.equal(await k.ok(['label', 'service', 'web', 'tier-', '-n', seedNs]), 'service/web unlabeled\n');
          assert.equal((await readObject(ws.cluster, svc)).metadata.labels?.tier, undefined);
          // kubectl 1.27 itself prints the verb unconjugated (fixed in 1.28), whatever the server.
          const annotated = version === '1.27' ? 'annotate' : 'annotated';
          assert.equal(await k.ok(['annotate', 'service', 'web', 'fidelity.test/note=hello', '-n', seedNs]), `service/web ${annotated}\n`);
          assert.equal((await readObject(ws.cluster, svc)).metadata.annotations?.['fidelity.test/note'], 'hello');
        });

        it('edit with a scripted EDITOR saves the edited field', async () => {
          const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app-config', namespace: seedNs } };
          const before = await readObject(ws.cluster, cm);
          const editor = 'sed -i s/blue/green/';
          const out = await k.ok(['edit', 'configmap', 'app-config', '-n', seedNs], { env: { EDITOR: editor, KUBE_EDITOR: editor } });
          assert.equal(out, 'configmap/app-config edited\n');
          const edited = await readObject(ws.cluster, cm);
          assert.deepEqual(edited.data, { color: 'green', size: 'large' });
          assert.notEqual(edited.metadata.resourceVersion, before.metadata.resourceVersion);
        });

        it('delete --wait returns only once the finalizers let the object go', async () => {
          const held = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: seedNs, finalizers: ['fidelity.test/hold'] } };
          await createObject(ws.cluster, held);
          const del = k.start(['delete', 'configmap', 'held', '-n', seedNs, '--wait', '--timeout=20s'], { timeoutMs: 25_000 });
          try {
            await eventually('deletionTimestamp', async () => (await readObject(ws.cluster, held)).metadata.deletionTimestamp !== undefined);
            const early = await Promise.race([del.exited.then(() => 'exited'), delay(500).then(() => 'waiting')]);
            assert.equal(early, 'waiting', 'kubectl returned while the finalizer still held the object');
            await mergePatch(ws.cluster, held, { metadata: { finalizers: null } });
            const r = await del.exited;
            assert.equal(r.code, 0, r.stderr);
            assert.equal(r.stdout, 'configmap "held" deleted\n');
          } finally {
            await del.stop();
          }
          assert.equal((await request(ws.cluster, 'GET', objectPath(held))).status, 404);
        });

        it('wait --for=delete returns when the object is deleted', async () => {
          const doomed = await createObject(ws.cluster, pod(seedNs, 'doomed'));
          const wait = k.start(['wait', '--for=delete', 'pod/doomed', '-n', seedNs, '--timeout=20s', '-v=6'], { timeoutMs: 25_000 });
          try {
            await wait.waitForLine('stderr', /watch=true/, 10_000);
            const r = await request(ws.cluster, 'DELETE', objectPath(doomed));
            assert.equal(r.status, 200, r.text);
            const done = await wait.exited;
            assert.equal(done.code, 0, done.stderr);
            assert.equal(done.stdout, 'pod/doomed condition met\n');
          } finally {
            await wait.stop();
          }
        });

        it('--validate=strict rejects an unknown field with the server message', async () => {
          const file = await writeFixture('fidelity/unknown-field.yaml', { ns: seedNs }, ws.dir, `unknown-field-${v}.yaml`);
          const r = await k.run(['create', '-f', file, '--validate=strict']);
          assert.equal(r.code, 1);
          assert.equal(r.stdout, '');
          assert.equal(
            r.stderr,
            `Error from server (BadRequest): error when creating "${file}": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.foo"\n`,
          );
        });

        it('--validate=warn creates the object without the field and prints the server warning', async () => {
          const file = await writeFixture('fidelity/unknown-field.yaml', { ns: seedNs }, ws.dir, `unknown-field-warn-${v}.yaml`);
          const r = await k.run(['create', '-f', file, '--validate=warn']);
          assert.equal(r.code, 0, r.stderr);
          assert.equal(r.stdout, 'deployment.apps/typo created\n');
          assert.equal(r.stderr, 'Warning: unknown field "spec.foo"\n');
          const stored = await readObject(ws.cluster, { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'typo', namespace: seedNs } });
          assert.equal(stored.spec.foo, undefined);
        });
      });
    }
  });

  describe('Kubernetes names (--kubernetes-compat): typed create commands', { concurrency: true }, () => {
    const ws = kubectlWorkspace({ kubernetesCompat: true });

    for (const version of VERSIONS) {
      describe(`kubectl ${version}`, { concurrency: 1 }, () => {
        const v = version.replace('.', '');
        const ns = `typed-${v}`;
        const k = ws.kubectl(version);
        const read = (apiVersion: string, kind: string, name: string) => readObject(ws.cluster, { apiVersion, kind, metadata: { name, namespace: ns } });

        before(async () => {
          await createObject(ws.cluster, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
        });

        it('create deployment makes a deployment with upstream defaults', async () => {
          assert.equal(await k.ok(['create', 'deployment', 'web', '--image=nginx:1.25', '--replicas=2', '-n', ns]), 'deployment.apps/web created\n');
          const d = await read('apps/v1', 'Deployment', 'web');
          assert.equal(d.spec.replicas, 2);
          assert.deepEqual(d.spec.selector, { matchLabels: { app: 'web' } });
          assert.deepEqual(d.spec.template.metadata.labels, { app: 'web' });
          assert.deepEqual(d.spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
          assert.equal(d.spec.revisionHistoryLimit, 10);
          assert.equal(d.spec.progressDeadlineSeconds, 600);
          const podSpec = d.spec.template.spec;
          assert.equal(podSpec.restartPolicy, 'Always');
          assert.equal(podSpec.terminationGracePeriodSeconds, 30);
          assert.equal(podSpec.dnsPolicy, 'ClusterFirst');
          assert.equal(podSpec.schedulerName, 'default-scheduler');
          assert.deepEqual(podSpec.securityContext, {});
          assert.deepEqual(podSpec.containers, [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ]);
        });

        it('create job makes a job that never restarts, with upstream defaults', async () => {
          assert.equal(await k.ok(['create', 'job', 'once', '--image=busybox:1.36', '-n', ns, '--', 'echo', 'hi']), 'job.batch/once created\n');
          const j = await read('batch/v1', 'Job', 'once');
          assert.equal(j.spec.template.spec.restartPolicy, 'Never');
          assert.deepEqual(j.spec.template.spec.containers[0].command, ['echo', 'hi']);
          assert.equal(j.spec.backoffLimit, 6);
          assert.equal(j.spec.completions, 1);
          assert.equal(j.spec.parallelism, 1);
          assert.equal(j.spec.completionMode, 'NonIndexed');
          // The server selects the job's pods by its uid and labels the template with the job's name.
          assert.ok(Object.values(j.spec.selector?.matchLabels ?? {}).includes(j.metadata.uid), JSON.stringify(j.spec.selector));
          assert.ok(Object.values(j.spec.template.metadata?.labels ?? {}).includes('once'), JSON.stringify(j.spec.template.metadata));
        });

        it('create cronjob makes a cronjob with upstream defaults', async () => {
          assert.equal(
            await k.ok(['create', 'cronjob', 'tick', '--image=busybox:1.36', '--schedule=*/5 * * * *', '-n', ns, '--', 'date']),
            'cronjob.batch/tick created\n',
          );
          const c = await read('batch/v1', 'CronJob', 'tick');
          assert.equal(c.spec.schedule, '*/5 * * * *');
          assert.equal(c.spec.concurrencyPolicy, 'Allow');
          assert.equal(c.spec.suspend, false);
          assert.equal(c.spec.successfulJobsHistoryLimit, 3);
          assert.equal(c.spec.failedJobsHistoryLimit, 1);
          assert.equal(c.spec.jobTemplate.spec.template.spec.restartPolicy, 'OnFailure');
          assert.deepEqual(c.spec.jobTemplate.spec.template.spec.containers[0].command, ['date']);
        });

        it('create secret generic stores the literal base64-encoded', async () => {
          assert.equal(await k.ok(['create', 'secret', 'generic', 'creds', '--from-literal=user=admin', '-n', ns]), 'secret/creds created\n');
          const s = await read('v1', 'Secret', 'creds');
          assert.equal(s.type, 'Opaque');
          assert.deepEqual(s.data, { user: Buffer.from('admin').toString('base64') });
        });

        it('create serviceaccount', async () => {
          assert.equal(await k.ok(['create', 'serviceaccount', 'robot', '-n', ns]), 'serviceaccount/robot created\n');
          assert.equal((await read('v1', 'ServiceAccount', 'robot')).metadata.name, 'robot');
        });

        it('create role', async () => {
          assert.equal(
            await k.ok(['create', 'role', 'reader', '--verb=get,list', '--resource=pods', '-n', ns]),
            'role.rbac.authorization.k8s.io/reader created\n',
          );
          assert.deepEqual((await read('rbac.authorization.k8s.io/v1', 'Role', 'reader')).rules, [
            { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] },
          ]);
        });

        it('create rolebinding', async () => {
          assert.equal(
            await k.ok(['create', 'rolebinding', 'reader-binding', '--role=reader', `--serviceaccount=${ns}:robot`, '-n', ns]),
            'rolebinding.rbac.authorization.k8s.io/reader-binding created\n',
          );
          const rb = await read('rbac.authorization.k8s.io/v1', 'RoleBinding', 'reader-binding');
          assert.deepEqual(rb.roleRef, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
          assert.deepEqual(rb.subjects, [{ kind: 'ServiceAccount', name: 'robot', namespace: ns }]);
        });

        it('create priorityclass', async () => {
          const name = `typed-${v}`;
          assert.equal(
            await k.ok(['create', 'priorityclass', name, '--value=1000', '--description=typed commands']),
            `priorityclass.scheduling.k8s.io/${name} created\n`,
          );
          const pc = await readObject(ws.cluster, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name } });
          assert.equal(pc.value, 1000);
          assert.equal(pc.description, 'typed commands');
          // false is Go's zero value: omitted from the stored object, as upstream (omitempty).
          assert.equal(pc.globalDefault ?? false, false);
          assert.equal(pc.preemptionPolicy, 'PreemptLowerPriority');
        });
      });
    }
  });
});
