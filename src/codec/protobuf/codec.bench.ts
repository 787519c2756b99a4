/**
 * Speed of the Protobuf codec on a realistic ConfigMap (~1.3 KB of JSON: labels, annotations,
 * ownerReferences, managedFields with FieldsV1, five data keys), as a ratio against
 * JSON.parse / JSON.stringify of the same object measured in the same run.
 * Run: node dist/src/codec/protobuf/codec.bench.js
 */
import { decodeProtobufObject, encodeProtobufObject } from './codec.js';

const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: {
    name: 'web-settings',
    namespace: 'shop',
    uid: '6f2b6a3e-8c1d-4a57-9d0e-2b1f4c3a5e71',
    resourceVersion: '123456',
    creationTimestamp: '2024-01-01T00:00:00Z',
    labels: { app: 'web', tier: 'frontend', 'app.kubernetes.io/part-of': 'shop' },
    annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","kind":"ConfigMap"}', note: 'managed by ci' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: '0d3c1f2a-0000-4000-8000-000000000001', controller: true }],
    managedFields: [
      {
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2024-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {}, 'f:c': {}, 'f:d': {}, 'f:e': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
      },
    ],
  },
  data: {
    a: 'color=blue\nsize=10\nmode=fast\n',
    b: 'x'.repeat(200),
    c: 'listen 8080;\nserver_name shop.example.com;\n',
    d: 'true',
    e: '{"feature":{"enabled":true,"ratio":0.25}}',
  },
};

function opsPerSecond(fn: () => unknown, ms = 1000): number {
  for (let i = 0; i < 2000; i++) fn(); // warm up the JIT
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 200; i++) fn();
    n += 200;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

const pb = encodeProtobufObject(configMap);
const json = Buffer.from(JSON.stringify(configMap));

const decode = opsPerSecond(() => decodeProtobufObject(pb));
const parse = opsPerSecond(() => JSON.parse(json.toString('utf8')));
const encode = opsPerSecond(() => encodeProtobufObject(configMap));
const stringify = opsPerSecond(() => Buffer.from(JSON.stringify(configMap)));

const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
console.log(`ConfigMap: ${pb.length} B Protobuf, ${json.length} B JSON`);
console.log(`decode  ${fmt(decode)} ops/s  (JSON.parse     ${fmt(parse)} ops/s, ratio ${(decode / parse).toFixed(2)})`);
console.log(`encode  ${fmt(encode)} ops/s  (JSON.stringify ${fmt(stringify)} ops/s, ratio ${(encode / stringify).toFixed(2)})`);
