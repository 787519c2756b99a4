import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KUBERNETES_BRAND, ORCH_BRAND } from '../../machinery/brand.js';
import type { UserInfo } from '../../machinery/user.js';
import { requestInfo } from '../request-info.js';
import { bootstrapConfiguration } from './bootstrap-objects.js';
import { byPrecedence, compileFlowSchema, flowDistinguisher } from './classifier.js';

const cfg = bootstrapConfiguration(ORCH_BRAND);
const schemas = [...cfg.mandatoryFlowSchemas, ...cfg.suggestedFlowSchemas].map(compileFlowSchema).sort(byPrecedence);

function classify(user: UserInfo, method: string, path: string) {
  const info = requestInfo(method, path, new URLSearchParams());
  const fs = schemas.find((s) => s.matches(user, info));
  return { name: fs?.name, level: fs?.priorityLevel, flow: fs ? flowDistinguisher(fs, user, info) : undefined };
}

const authenticated = (name: string, ...groups: string[]): UserInfo => ({ name, groups: [...groups, 'system:authenticated'] });

test('bootstrap schemas route requests as upstream suggests', () => {
  assert.deepEqual(classify(authenticated('admin', 'system:masters'), 'GET', '/api/v1/pods'), { name: 'exempt', level: 'exempt', flow: '' });
  assert.deepEqual(classify({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/livez'), { name: 'probes', level: 'exempt', flow: '' });
  assert.deepEqual(classify({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'GET', '/version'), {
    name: 'global-default',
    level: 'global-default',
    flow: 'system:anonymous',
  });
  const node = authenticated('system:node:n1', 'system:nodes');
  assert.equal(classify(node, 'PATCH', '/api/v1/nodes/n1/status').name, 'system-node-high');
  assert.equal(classify(node, 'PUT', '/apis/coordination.orch.io/v1/namespaces/orch-node-lease/leases/n1').name, 'system-node-high');
  assert.equal(classify(node, 'GET', '/api/v1/namespaces/default/pods').name, 'system-nodes');
  // orch's own components by the Brand's names.
  assert.equal(
    classify(authenticated('system:orch-scheduler'), 'PUT', '/apis/coordination.orch.io/v1/namespaces/orch-system/leases/orch-scheduler').name,
    'system-leader-election',
  );
  assert.deepEqual(classify(authenticated('system:orch-scheduler'), 'GET', '/api/v1/namespaces/team-a/pods'), {
    name: 'kube-scheduler',
    level: 'workload-high',
    flow: 'team-a',
  });
  const endpoints = authenticated('system:serviceaccount:orch-system:endpoint-controller', 'system:serviceaccounts', 'system:serviceaccounts:orch-system');
  assert.equal(classify(endpoints, 'PUT', '/api/v1/namespaces/default/endpoints/web').name, 'endpoint-controller');
  assert.equal(classify(endpoints, 'PUT', '/api/v1/namespaces/default/configmaps/lock').name, 'workload-leader-election');
  assert.equal(classify(endpoints, 'GET', '/api/v1/namespaces/default/pods').name, 'orch-system-service-accounts');
  const robot = authenticated('system:serviceaccount:default:robot', 'system:serviceaccounts', 'system:serviceaccounts:default');
  assert.deepEqual(classify(robot, 'GET', '/api/v1/namespaces/default/pods'), { name: 'service-accounts', level: 'workload-low', flow: robot.name });
  assert.equal(classify(authenticated('alice'), 'DELETE', '/apis/apps/v1/namespaces/x/deployments/y').name, 'global-default');
});

test('compat mode names the kube-system namespace and the kube-* components', () => {
  const compat = [...bootstrapConfiguration(KUBERNETES_BRAND).suggestedFlowSchemas].map(compileFlowSchema);
  const info = requestInfo('GET', '/api/v1/pods', new URLSearchParams());
  const sa = authenticated('system:serviceaccount:kube-system:x', 'system:serviceaccounts');
  assert.ok(compat.find((s) => s.name === 'kube-system-service-accounts')?.matches(sa, info));
  assert.ok(compat.find((s) => s.name === 'kube-scheduler')?.matches(authenticated('system:kube-scheduler'), info));
});

test("rules match as upstream's: resource/subresource, clusterScope, namespaces, URL prefixes, sole wildcards", () => {
  const fs = compileFlowSchema({
    metadata: { name: 'x', uid: 'u' },
    spec: {
      priorityLevelConfiguration: { name: 'p' },
      rules: [
        {
          subjects: [{ kind: 'ServiceAccount', serviceAccount: { namespace: 'ns1', name: '*' } }],
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods/log'], namespaces: ['ns1'] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/metrics/*', '/debug'] }],
        },
      ],
    },
  });
  assert.equal(fs.matchingPrecedence, 1000);
  const sa = { name: 'system:serviceaccount:ns1:any', groups: [] };
  const other = { name: 'system:serviceaccount:ns2:any', groups: [] };
  const m = (user: UserInfo, method: string, path: string) => fs.matches(user, requestInfo(method, path, new URLSearchParams()));
  assert.ok(m(sa, 'GET', '/api/v1/namespaces/ns1/pods/p/log'));
  assert.ok(!m(sa, 'GET', '/api/v1/namespaces/ns1/pods/p'));
  assert.ok(!m(sa, 'GET', '/api/v1/namespaces/ns2/pods/p/log'));
  assert.ok(!m(other, 'GET', '/api/v1/namespaces/ns1/pods/p/log'));
  assert.ok(m(sa, 'GET', '/metrics/slis'));
  assert.ok(m(sa, 'GET', '/debug'));
  assert.ok(m(sa, 'GET', '/debug/pprof'));
  assert.ok(!m(sa, 'GET', '/debugger'));
  assert.ok(!m(sa, 'POST', '/debug'));
  // A cluster-scoped request matches only rules with clusterScope.
  assert.ok(!m(sa, 'GET', '/api/v1/nodes'));
});
