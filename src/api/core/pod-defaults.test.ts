import assert from 'node:assert/strict';
import { test } from 'node:test';
import { imageTag } from './image-reference.js';
import { defaultPod, defaultPodSpec, defaultPodTemplateSpec } from './pod-defaults.js';

test('imageTag reads the tag as upstream ParseImageName', () => {
  assert.equal(imageTag('nginx'), 'latest');
  assert.equal(imageTag('nginx:1.25'), '1.25');
  assert.equal(imageTag('registry.example.com:5000/team/app:v2'), 'v2');
  assert.equal(imageTag('localhost:5000/app'), 'latest');
  assert.equal(imageTag(`nginx@sha256:${'a'.repeat(64)}`), '');
  assert.equal(imageTag('Nginx:1'), '');
  assert.equal(imageTag(''), '');
});

test('defaultPodSpec fills SetDefaults_PodSpec and the container defaults', () => {
  const spec: Record<string, any> = {
    containers: [{ name: 'a', image: 'x:latest', ports: [{ containerPort: 80 }], readinessProbe: { tcpSocket: { port: 80 } } }],
    volumes: [{ name: 'v' }, { name: 's', secret: { secretName: 's' } }],
    serviceAccount: 'robot',
  };
  defaultPodSpec(spec);
  assert.equal(spec.restartPolicy, 'Always');
  assert.equal(spec.dnsPolicy, 'ClusterFirst');
  assert.equal(spec.terminationGracePeriodSeconds, 30);
  assert.equal(spec.schedulerName, 'default-scheduler');
  assert.deepEqual(spec.securityContext, {});
  assert.equal(spec.serviceAccountName, 'robot');
  assert.equal(spec.containers[0].imagePullPolicy, 'Always');
  assert.equal(spec.containers[0].ports[0].protocol, 'TCP');
  assert.equal(spec.containers[0].readinessProbe.periodSeconds, 10);
  assert.deepEqual(spec.volumes[0].emptyDir, {});
  assert.equal(spec.volumes[1].secret.defaultMode, 0o644);
  // Defaults never override what the client set.
  const kept: Record<string, any> = { containers: [], restartPolicy: 'Never', terminationGracePeriodSeconds: 0 };
  defaultPodSpec(kept);
  assert.equal(kept.restartPolicy, 'Never');
  assert.equal(kept.terminationGracePeriodSeconds, 0);
});

test('hostNetwork pods get host ports equal to container ports', () => {
  const spec: Record<string, any> = { hostNetwork: true, containers: [{ name: 'a', image: 'x', ports: [{ containerPort: 8080 }] }] };
  defaultPodSpec(spec);
  assert.equal(spec.containers[0].ports[0].hostPort, 8080);
});

test('defaultPod adds requests from limits and enableServiceLinks; templates do not get requests', () => {
  const pod: Record<string, any> = { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '0.25', memory: '2048Mi' } } }] } };
  defaultPod(pod);
  assert.deepEqual(pod.spec.containers[0].resources, { limits: { cpu: '250m', memory: '2Gi' }, requests: { cpu: '250m', memory: '2Gi' } });
  assert.equal(pod.spec.enableServiceLinks, true);
  const template: Record<string, any> = { spec: { containers: [{ name: 'a', image: 'x', resources: { limits: { cpu: '1' } } }] } };
  defaultPodTemplateSpec(template);
  assert.equal(template.spec.containers[0].resources.requests, undefined);
  assert.equal(template.spec.enableServiceLinks, undefined);
});

test('podIP is authoritative over podIPs, as the v1 conversion says', () => {
  const pod: Record<string, any> = { spec: { containers: [] }, status: { podIP: '10.0.0.2', podIPs: [{ ip: '10.0.0.3' }] } };
  defaultPod(pod);
  assert.deepEqual(pod.status.podIPs, [{ ip: '10.0.0.2' }]);
});
