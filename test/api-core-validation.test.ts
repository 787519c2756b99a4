/**
 * Core v1 defaulting and validation over real HTTP, as upstream 1.25 answers: every rule is a
 * 422 Invalid whose details.causes name the field and carry upstream's message; decode errors
 * are 400s; pod binding and Priority admission behave as upstream's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { RawResponse } from './helpers/cluster.js';
import { clusterClient, MERGE } from './helpers/cluster-client.js';
import { assertOk, invalidCauses, type StatusCause } from './helpers/invalid.js';

const NS = '/api/v1/namespaces/default';

const call = clusterClient();

/** Asserts r succeeded, 201 Created unless told, and returns its body. */
const ok = (r: RawResponse, code = 201): any => assertOk(r, code);

/** Asserts a pod is refused as invalid and returns its causes. */
async function invalidPod(body: Record<string, unknown>): Promise<StatusCause[]> {
  return invalidCauses(await call('POST', `${NS}/pods`, body), 'Pod');
}

/** Asserts that one cause has this field, reason and message. */
function hasCause(causes: StatusCause[], field: string, reason: string, message: string): void {
  const hit = causes.find((c) => c.field === field && c.reason === reason && c.message === message);
  assert.ok(hit, `no ${reason} cause at ${field} saying ${JSON.stringify(message)} in ${JSON.stringify(causes, null, 1)}`);
}

/** Asserts every [field, reason, message] is among the causes. */
function hasCauses(causes: StatusCause[], expected: [field: string, reason: string, message: string][]): void {
  for (const [field, reason, message] of expected) hasCause(causes, field, reason, message);
}

function pod(name: string, spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'app', image: 'nginx:1.25' }], ...spec }, ...extra };
}

function container(extra: Record<string, unknown>): Record<string, unknown> {
  return { name: 'app', image: 'nginx:1.25', ...extra };
}

const RFC1123_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

describe('Pod defaults', () => {
  it('fills upstream SetDefaults_Pod/PodSpec/Container and canonical quantities', async () => {
    const body = pod('defaults', {
      containers: [
        container({
          ports: [{ containerPort: 80 }],
          resources: { limits: { cpu: '0.5', memory: '1024Mi' } },
          livenessProbe: { httpGet: { port: 80 } },
          env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        }),
        { name: 'latest', image: 'busybox' },
      ],
      volumes: [{ name: 'scratch' }, { name: 'cfg', configMap: { name: 'c' } }],
    });
    const p = ok(await call('POST', `${NS}/pods`, body));
    const spec = p.spec;
    assert.equal(spec.restartPolicy, 'Always');
    assert.equal(spec.dnsPolicy, 'ClusterFirst');
    assert.equal(spec.terminationGracePeriodSeconds, 30);
    assert.equal(spec.schedulerName, 'default-scheduler');
    assert.deepEqual(spec.securityContext, {});
    assert.equal(spec.enableServiceLinks, true);
    const [app, latest] = spec.containers;
    assert.equal(app.imagePullPolicy, 'IfNotPresent');
    assert.equal(latest.imagePullPolicy, 'Always');
    assert.equal(app.terminationMessagePath, '/dev/termination-log');
    assert.equal(app.terminationMessagePolicy, 'File');
    assert.equal(app.ports[0].protocol, 'TCP');
    assert.deepEqual(app.resources, { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    assert.deepEqual(app.livenessProbe, {
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    assert.equal(app.env[0].valueFrom.fieldRef.apiVersion, 'v1');
    assert.deepEqual(spec.volumes[0], { name: 'scratch', emptyDir: {} });
    assert.equal(spec.volumes[1].configMap.defaultMode, 0o644);
    assert.equal(p.status.phase, 'Pending');
    assert.equal(p.status.qosClass, 'Burstable');
    assert.equal(spec.priority, 0);
    assert.equal(spec.preemptionPolicy, 'PreemptLowerPriority');
  });

  it('a quantity that does not parse is a 400 from decoding', async () => {
    const r = await call('POST', `${NS}/pods`, pod('badqty', { containers: [container({ resources: { limits: { cpu: '1 core' } } })] }));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.reason, 'BadRequest');
    assert.equal(
      r.json.message,
      `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });

  it('ReplicationController and PodTemplate templates are defaulted too', async () => {
    const rc = ok(
      await call('POST', `${NS}/replicationcontrollers`, {
        apiVersion: 'v1',
        kind: 'ReplicationController',
        metadata: { name: 'rc1' },
        spec: { template: { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } },
      }),
    );
    assert.deepEqual(rc.spec.selector, { app: 'x' });
    assert.deepEqual(rc.metadata.labels, { app: 'x' });
    assert.equal(rc.spec.replicas, 1);
    assert.equal(rc.spec.template.spec.restartPolicy, 'Always');
    assert.equal(rc.spec.template.spec.containers[0].imagePullPolicy, 'Always');
    const pt = ok(
      await call('POST', `${NS}/podtemplates`, {
        apiVersion: 'v1',
        kind: 'PodTemplate',
        metadata: { name: 'pt1' },
        template: { spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
      }),
    );
    assert.equal(pt.template.spec.dnsPolicy, 'ClusterFirst');
  });
});

describe('Pod validation', () => {
  it('containers are required', async () => {
    const causes = await invalidPod(pod('nocontainers', { containers: [] }));
    hasCause(causes, 'spec.containers', 'FieldValueRequired', 'Required value');
  });

  it('container names, images, ports and protocols', async () => {
    const body = pod('bad-containers', {
      containers: [
        container({
          name: 'Bad_Name',
          image: '',
          ports: [
            { containerPort: 70000, name: 'web' },
            { containerPort: 0, name: 'web', protocol: 'HTTP' },
          ],
        }),
        container({}),
        container({}),
      ],
    });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      ['spec.containers[0].name', 'FieldValueInvalid', `Invalid value: "Bad_Name": ${RFC1123_LABEL}`],
      ['spec.containers[0].image', 'FieldValueRequired', 'Required value'],
      ['spec.containers[0].ports[0].containerPort', 'FieldValueInvalid', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
      ['spec.containers[0].ports[1].name', 'FieldValueDuplicate', 'Duplicate value: "web"'],
      ['spec.containers[0].ports[1].containerPort', 'FieldValueRequired', 'Required value'],
      ['spec.containers[0].ports[1].protocol', 'FieldValueNotSupported', 'Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"'],
      ['spec.containers[2].name', 'FieldValueDuplicate', 'Duplicate value: "app"'],
    ]);
  });

  it('requests may not exceed limits; resource names are standard', async () => {
    const body = pod('bad-resources', { containers: [container({ resources: { limits: { cpu: '1' }, requests: { cpu: '2', gpu: '1' } } })] });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      ['spec.containers[0].resources.requests', 'FieldValueInvalid', 'Invalid value: "2": must be less than or equal to cpu limit'],
      ['spec.containers[0].resources.requests[gpu]', 'FieldValueInvalid', 'Invalid value: "gpu": must be a standard resource for containers'],
    ]);
    const negative = await invalidPod(pod('neg', { containers: [container({ resources: { requests: { memory: '-1' } } })] }));
    hasCause(negative, 'spec.containers[0].resources.requests[memory]', 'FieldValueInvalid', 'Invalid value: "-1": must be greater than or equal to 0');
  });

  it('restartPolicy, dnsPolicy, nodeSelector, tolerations and activeDeadlineSeconds', async () => {
    const body = pod('bad-spec', {
      restartPolicy: 'Sometimes',
      dnsPolicy: 'Magic',
      nodeSelector: { 'bad key!': 'v' },
      tolerations: [
        { key: 'k', operator: 'Maybe' },
        { operator: 'Equal', value: 'x' },
      ],
      activeDeadlineSeconds: 0,
    });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      ['spec.restartPolicy', 'FieldValueNotSupported', 'Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"'],
      [
        'spec.dnsPolicy',
        'FieldValueNotSupported',
        'Unsupported value: "Magic": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ]);
    assert.ok(causes.some((c) => c.field === 'spec.nodeSelector' && c.message.startsWith('Invalid value: "bad key!": name part must consist of')));
    hasCauses(causes, [
      ['spec.tolerations[0].operator', 'FieldValueNotSupported', 'Unsupported value: "Maybe": supported values: "Equal", "Exists"'],
      [
        'spec.tolerations[1].operator',
        'FieldValueInvalid',
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
      ['spec.activeDeadlineSeconds', 'FieldValueInvalid', 'Invalid value: 0: must be between 1 and 2147483647, inclusive'],
    ]);
  });

  it('volumes: names, exactly one source, mounts refer to volumes', async () => {
    const body = pod('bad-volumes', {
      volumes: [
        { name: 'two', emptyDir: {}, hostPath: { path: '/tmp' } },
        { name: 'Bad', emptyDir: {} },
        { name: 'ok', emptyDir: {} },
        { name: 'ok', emptyDir: {} },
      ],
      containers: [
        container({
          volumeMounts: [
            { name: 'missing', mountPath: '/a' },
            { name: 'ok', mountPath: '/a' },
          ],
        }),
      ],
    });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      ['spec.volumes[0].hostPath', 'FieldValueForbidden', 'Forbidden: may not specify more than 1 volume type'],
      ['spec.volumes[1].name', 'FieldValueInvalid', `Invalid value: "Bad": ${RFC1123_LABEL}`],
      ['spec.volumes[3].name', 'FieldValueDuplicate', 'Duplicate value: "ok"'],
      ['spec.containers[0].volumeMounts[0].name', 'FieldValueNotFound', 'Not found: "missing"'],
      ['spec.containers[0].volumeMounts[1].mountPath', 'FieldValueInvalid', 'Invalid value: "/a": must be unique'],
    ]);
  });

  it('env var names and sources', async () => {
    const body = pod('bad-env', {
      containers: [container({ env: [{ name: '1BAD' }, { name: 'X', value: 'v', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] })],
    });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      [
        'spec.containers[0].env[0].name',
        'FieldValueInvalid',
        "Invalid value: \"1BAD\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
      ],
      ['spec.containers[0].env[1].valueFrom', 'FieldValueInvalid', 'Invalid value: "": may not be specified when `value` is not empty'],
    ]);
  });

  it('affinity terms are checked', async () => {
    const body = pod('bad-affinity', {
      affinity: {
        nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In' }] }] } },
        podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: '' } }] },
      },
    });
    const causes = await invalidPod(body);
    hasCauses(causes, [
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values',
        'FieldValueRequired',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
      [
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight',
        'FieldValueInvalid',
        'Invalid value: 0: must be in the range 1-100',
      ],
      [
        'spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey',
        'FieldValueRequired',
        'Required value: can not be empty',
      ],
    ]);
  });

  it('updates may change only images, activeDeadlineSeconds, added tolerations', async () => {
    const created = ok(await call('POST', `${NS}/pods`, pod('upd')));
    const images = ok(
      // A merge patch replaces the whole list: the container keeps what admission added (its token mount).
      await call(
        'PATCH',
        `${NS}/pods/upd`,
        { spec: { containers: [{ ...created.spec.containers[0], image: 'nginx:1.26' }], activeDeadlineSeconds: 100 } },
        MERGE,
      ),
      200,
    );
    assert.equal(images.spec.containers[0].image, 'nginx:1.26');
    assert.equal(images.spec.priority, created.spec.priority);
    const r = await call('PATCH', `${NS}/pods/upd`, { spec: { restartPolicy: 'Never' } }, MERGE);
    const causes = invalidCauses(r, 'Pod');
    const spec = causes.find((c) => c.field === 'spec');
    assert.equal(spec?.reason, 'FieldValueForbidden');
    assert.ok(
      spec?.message.startsWith(
        'Forbidden: pod updates may not change fields other than `spec.containers[*].image`, `spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations` (only additions to existing tolerations) or `spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n',
      ),
      spec?.message,
    );
    const deadline = invalidCauses(await call('PATCH', `${NS}/pods/upd`, { spec: { activeDeadlineSeconds: 200 } }, MERGE), 'Pod');
    hasCause(deadline, 'spec.activeDeadlineSeconds', 'FieldValueInvalid', 'Invalid value: 200: must be less than or equal to previous value');
  });
});

describe('pod binding', () => {
  it('pods/binding assigns the node once, marks PodScheduled and answers 201 Success', async () => {
    ok(await call('POST', `${NS}/pods`, pod('bind-me')));
    const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bind-me' }, target: { kind: 'Node', name: 'node-1' } };
    const r = await call('POST', `${NS}/pods/bind-me/binding`, binding);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
    const p = ok(await call('GET', `${NS}/pods/bind-me`), 200);
    assert.equal(p.spec.nodeName, 'node-1');
    const scheduled = p.status.conditions.find((c: { type: string }) => c.type === 'PodScheduled');
    assert.equal(scheduled.status, 'True');
    assert.ok(scheduled.lastTransitionTime);
    const again = await call('POST', `${NS}/pods/bind-me/binding`, { ...binding, target: { name: 'node-2' } });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.json.reason, 'Conflict');
    assert.equal(again.json.message, 'Operation cannot be fulfilled on pods/binding "bind-me": pod bind-me is already assigned to node "node-1"');
  });

  it('the bindings resource binds by the Binding name; a missing pod is 404', async () => {
    ok(await call('POST', `${NS}/pods`, pod('bind-res')));
    const r = await call('POST', `${NS}/bindings`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bind-res' }, target: { name: 'node-9' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(ok(await call('GET', `${NS}/pods/bind-res`), 200).spec.nodeName, 'node-9');
    const missing = await call('POST', `${NS}/pods/ghost/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'ghost' }, target: { name: 'n' } });
    assert.equal(missing.status, 404, missing.text);
    assert.equal(missing.json.message, 'pods "ghost" not found');
  });

  it('a binding without a node name or with another kind is invalid', async () => {
    ok(await call('POST', `${NS}/pods`, pod('bind-bad')));
    const causes = invalidCauses(
      await call('POST', `${NS}/pods/bind-bad/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bind-bad' }, target: { kind: 'Pod' } }),
      'Binding',
    );
    hasCauses(causes, [
      ['target.kind', 'FieldValueNotSupported', 'Unsupported value: "Pod": supported values: "Node", "<empty>"'],
      ['target.name', 'FieldValueRequired', 'Required value'],
    ]);
  });

  it('discovery lists pods/binding', async () => {
    const list = ok(await call('GET', '/api/v1'), 200);
    const binding = list.resources.find((r: { name: string }) => r.name === 'pods/binding');
    assert.deepEqual(binding, { name: 'pods/binding', singularName: '', namespaced: true, kind: 'Binding', verbs: ['create'] });
  });
});

describe('Priority admission', () => {
  it('resolves the named class, refuses unknown classes and mismatched priorities', async () => {
    const critical = ok(await call('POST', `${NS}/pods`, pod('critical', { priorityClassName: 'system-node-critical' })));
    assert.equal(critical.spec.priority, 2000001000);
    const missing = await call('POST', `${NS}/pods`, pod('nopc', { priorityClassName: 'nope' }));
    assert.equal(missing.status, 403, missing.text);
    assert.equal(missing.json.reason, 'Forbidden');
    assert.equal(missing.json.message, 'pods "nopc" is forbidden: no PriorityClass with name nope was found');
    const mismatch = await call('POST', `${NS}/pods`, pod('mismatch', { priority: 7 }));
    assert.equal(mismatch.status, 403, mismatch.text);
    assert.equal(
      mismatch.json.message,
      'pods "mismatch" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    );
  });

  it('the global default class applies to pods without a class; only one default may exist', async () => {
    const group = (await call('GET', '/apis')).json.groups.find((g: { name: string }) => g.name.startsWith('scheduling.')).name;
    const pcPath = `/apis/${group}/v1/priorityclasses`;
    ok(await call('POST', pcPath, { apiVersion: `${group}/v1`, kind: 'PriorityClass', metadata: { name: 'everyone' }, value: 500, globalDefault: true }));
    const second = await call('POST', pcPath, {
      apiVersion: `${group}/v1`,
      kind: 'PriorityClass',
      metadata: { name: 'another' },
      value: 5,
      globalDefault: true,
    });
    assert.equal(second.status, 403, second.text);
    assert.equal(
      second.json.message,
      `priorityclasses.${group} "another" is forbidden: PriorityClass everyone is marked as default. Only one default can exist`,
    );
    const p = ok(await call('POST', `${NS}/pods`, pod('defaulted-priority')));
    assert.equal(p.spec.priorityClassName, 'everyone');
    assert.equal(p.spec.priority, 500);
    ok(await call('DELETE', `${pcPath}/everyone`), 200);
  });
});

describe('Service', () => {
  it('defaults type, session affinity, protocol, targetPort and IP families', async () => {
    const s = ok(
      await call('POST', `${NS}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { selector: { app: 'w' }, ports: [{ port: 80 }] },
      }),
    );
    assert.equal(s.spec.type, 'ClusterIP');
    assert.equal(s.spec.sessionAffinity, 'None');
    assert.deepEqual(s.spec.ports, [{ port: 80, protocol: 'TCP', targetPort: 80 }]);
    assert.equal(s.spec.internalTrafficPolicy, 'Cluster');
    assert.equal(s.spec.ipFamilyPolicy, 'SingleStack');
    assert.deepEqual(s.spec.ipFamilies, ['IPv4']);
  });

  it('ports, names, protocols, types and nodePorts', async () => {
    const noPorts = invalidCauses(
      await call('POST', `${NS}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'noports' }, spec: {} }),
      'Service',
    );
    hasCause(noPorts, 'spec.ports', 'FieldValueRequired', 'Required value');
    const body = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'bad' },
      spec: {
        type: 'Magic',
        ports: [
          { port: 0, protocol: 'ICMP', targetPort: 'Not_A_Name' },
          { port: 81, nodePort: 30001 },
        ],
      },
    };
    const causes = invalidCauses(await call('POST', `${NS}/services`, body), 'Service');
    hasCauses(causes, [
      ['spec.ports[0].name', 'FieldValueRequired', 'Required value'],
      ['spec.ports[0].port', 'FieldValueInvalid', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
      ['spec.ports[0].protocol', 'FieldValueNotSupported', 'Unsupported value: "ICMP": supported values: "SCTP", "TCP", "UDP"'],
      ['spec.ports[0].targetPort', 'FieldValueInvalid', 'Invalid value: "Not_A_Name": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)'],
      ['spec.type', 'FieldValueNotSupported', 'Unsupported value: "Magic": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"'],
    ]);
    const clusterIP = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'np' }, spec: { ports: [{ port: 80, nodePort: 30001 }] } };
    hasCause(
      invalidCauses(await call('POST', `${NS}/services`, clusterIP), 'Service'),
      'spec.ports[0].nodePort',
      'FieldValueForbidden',
      "Forbidden: may not be used when `type` is 'ClusterIP'",
    );
  });

  it('clusterIP may not change once set', async () => {
    ok(
      await call('POST', `${NS}/services`, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'fixed' },
        spec: { clusterIP: '10.0.0.10', ports: [{ port: 80 }] },
      }),
    );
    const r = await call('PATCH', `${NS}/services/fixed`, { spec: { clusterIP: '10.0.0.11', clusterIPs: ['10.0.0.11'] } }, MERGE);
    hasCause(invalidCauses(r, 'Service'), 'spec.clusterIPs[0]', 'FieldValueInvalid', 'Invalid value: []string{"10.0.0.11"}: may not change once set');
  });
});

describe('ConfigMap and Secret', () => {
  it('config keys, data/binaryData overlap and the 1 MiB limit', async () => {
    const body = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-bad' }, data: { 'bad key': 'v', dup: 'x' }, binaryData: { dup: 'eA==' } };
    const causes = invalidCauses(await call('POST', `${NS}/configmaps`, body), 'ConfigMap');
    hasCauses(causes, [
      [
        'data[bad key]',
        'FieldValueInvalid',
        "Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
      ['data[dup]', 'FieldValueInvalid', 'Invalid value: "dup": duplicate of key present in binaryData'],
    ]);
    const big = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-big' }, data: { a: 'x'.repeat(1048577) } };
    hasCause(invalidCauses(await call('POST', `${NS}/configmaps`, big), 'ConfigMap'), '[]', 'FieldValueTooLong', 'Too long: must have at most 1048576 bytes');
  });

  it('Secret data must be base64 (400); stringData folds into data; type is immutable', async () => {
    const bad = await call('POST', `${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's-bad' }, data: { k: 'not base64!' } });
    assert.equal(bad.status, 400, bad.text);
    assert.equal(bad.json.message, 'Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3');
    const s = ok(await call('POST', `${NS}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' }, stringData: { user: 'admin' } }));
    assert.equal(s.type, 'Opaque');
    assert.deepEqual(s.data, { user: 'YWRtaW4=' });
    assert.equal(s.stringData, undefined);
    const change = await call('PATCH', `${NS}/secrets/s1`, { type: 'Other' }, MERGE);
    hasCause(invalidCauses(change, 'Secret'), 'type', 'FieldValueInvalid', 'Invalid value: "Other": field is immutable');
  });

  it('well-known Secret types require their keys', async () => {
    const group = (await call('GET', '/apis')).json.groups.find((g: { name: string }) => g.name.startsWith('scheduling.')).name as string;
    const domain = group.endsWith('k8s.io') ? 'kubernetes.io' : group.slice('scheduling.'.length);
    const tls = await call('POST', `${NS}/secrets`, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'tls' },
      type: `${domain}/tls`,
      data: { 'tls.crt': 'eA==' },
    });
    hasCause(invalidCauses(tls, 'Secret'), 'data[tls.key]', 'FieldValueRequired', 'Required value');
    const big = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's-big' }, stringData: { a: 'x'.repeat(1048577) } };
    hasCause(invalidCauses(await call('POST', `${NS}/secrets`, big), 'Secret'), 'data', 'FieldValueTooLong', 'Too long: must have at most 1048576 bytes');
  });
});

describe('Node, Namespace, volumes and policy objects', () => {
  it('node taints and write-once spec fields', async () => {
    const bad = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'tainted' },
      spec: {
        taints: [
          { key: 'k', effect: 'Sometimes' },
          { key: 'dup', effect: 'NoSchedule' },
          { key: 'dup', effect: 'NoSchedule' },
        ],
      },
    };
    const causes = invalidCauses(await call('POST', '/api/v1/nodes', bad), 'Node');
    hasCauses(causes, [
      [
        'metadata.taints[0].effect',
        'FieldValueNotSupported',
        'Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      ],
      [
        'metadata.taints[2]',
        'FieldValueDuplicate',
        'Duplicate value: core.Taint{Key:"dup", Value:"", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair',
      ],
    ]);
    const n = ok(
      await call('POST', '/api/v1/nodes', {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'n1' },
        spec: { podCIDR: '10.244.1.0/24', providerID: 'p://1' },
      }),
    );
    assert.deepEqual(n.spec.podCIDRs, ['10.244.1.0/24']);
    const change = invalidCauses(
      await call('PATCH', '/api/v1/nodes/n1', { spec: { podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'], providerID: 'p://2' } }, MERGE),
      'Node',
    );
    hasCauses(change, [
      ['spec.podCIDRs', 'FieldValueForbidden', 'Forbidden: node updates may not change podCIDR except from "" to valid'],
      ['spec.providerID', 'FieldValueForbidden', 'Forbidden: node updates may not change providerID except from "" to valid'],
    ]);
    const cidr = invalidCauses(
      await call('POST', '/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n2' }, spec: { podCIDRs: ['nope'] } }),
      'Node',
    );
    hasCause(cidr, 'spec.podCIDRs[0]', 'FieldValueInvalid', 'Invalid value: []string{"nope"}: must be valid CIDR');
  });

  it('namespace finalizers must be standard or qualified', async () => {
    const causes = invalidCauses(
      await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'fin' }, spec: { finalizers: ['custom'] } }),
      'Namespace',
    );
    hasCause(causes, 'spec.finalizers', 'FieldValueInvalid', 'Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified');
  });

  it('persistent volumes: access modes, capacity, exactly one source', async () => {
    const pv = {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: { name: 'pv-bad' },
      spec: { accessModes: ['ReadWriteSometimes'], hostPath: { path: '/a' }, nfs: { server: 's', path: '/b' } },
    };
    const causes = invalidCauses(await call('POST', '/api/v1/persistentvolumes', pv), 'PersistentVolume');
    hasCauses(causes, [
      [
        'spec.accessModes',
        'FieldValueNotSupported',
        'Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"',
      ],
      ['spec.capacity', 'FieldValueRequired', 'Required value'],
      ['spec.nfs', 'FieldValueForbidden', 'Forbidden: may not specify more than 1 volume type'],
    ]);
  });

  it('claims: access modes and storage required; the spec is immutable except a bound claim growing', async () => {
    const bad = invalidCauses(
      await call('POST', `${NS}/persistentvolumeclaims`, { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c-bad' }, spec: {} }),
      'PersistentVolumeClaim',
    );
    hasCauses(bad, [
      ['spec.accessModes', 'FieldValueRequired', 'Required value: at least 1 access mode is required'],
      ['spec.resources[storage]', 'FieldValueRequired', 'Required value'],
    ]);
    const claim = {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'c1' },
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } },
    };
    const c = ok(await call('POST', `${NS}/persistentvolumeclaims`, claim));
    assert.equal(c.spec.resources.requests.storage, '1Gi');
    assert.equal(c.spec.volumeMode, 'Filesystem');
    assert.equal(c.status.phase, 'Pending');
    const grow = invalidCauses(
      await call('PATCH', `${NS}/persistentvolumeclaims/c1`, { spec: { resources: { requests: { storage: '2Gi' } } } }, MERGE),
      'PersistentVolumeClaim',
    );
    assert.ok(
      grow.some((x) => x.field === 'spec' && x.message.startsWith('Forbidden: spec is immutable after creation except resources.requests for bound claims\n')),
    );
  });

  it('endpoints, limit ranges and quotas', async () => {
    const ep = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ep' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ port: 80 }] }] };
    hasCause(
      invalidCauses(await call('POST', `${NS}/endpoints`, ep), 'Endpoints'),
      'subsets[0].addresses[0].ip',
      'FieldValueInvalid',
      'Invalid value: "127.0.0.1": may not be in the loopback range (127.0.0.0/8, ::1/128)',
    );
    const lr = {
      apiVersion: 'v1',
      kind: 'LimitRange',
      metadata: { name: 'lr' },
      spec: { limits: [{ type: 'Container', min: { cpu: '2' }, max: { cpu: '1' } }] },
    };
    hasCause(
      invalidCauses(await call('POST', `${NS}/limitranges`, lr), 'LimitRange'),
      'spec.limits[0].min[cpu]',
      'FieldValueInvalid',
      'Invalid value: 2: min value 2 is greater than max value 1',
    );
    const rq = { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'rq' }, spec: { hard: { pods: '1.5', widgets: '1' } } };
    const causes = invalidCauses(await call('POST', `${NS}/resourcequotas`, rq), 'ResourceQuota');
    hasCauses(causes, [
      ['spec.hard[pods]', 'FieldValueInvalid', 'Invalid value: 1500m: must be an integer'],
      ['spec.hard[widgets]', 'FieldValueInvalid', 'Invalid value: "widgets": must be a standard resource type or fully qualified'],
    ]);
  });
});
