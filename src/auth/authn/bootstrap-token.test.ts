import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootstrapTokenExpired as isExpired } from '../../machinery/bootstrap-token.js';
import { bootstrapTokenAuthenticator } from './bootstrap-token.js';
import type { Obj } from '../../machinery/object.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');
const b64 = (s: string) => Buffer.from(s).toString('base64');

function secret(data: Record<string, string>, extra: Partial<Obj> = {}): Obj {
  const encoded: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) encoded[k] = b64(v);
  return { metadata: { name: 'bootstrap-token-abcdef', namespace: 'orch-system' }, type: 'bootstrap.orch.io/token', data: encoded, ...extra };
}

const valid = { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' };

function authWith(obj: Obj | undefined) {
  return bootstrapTokenAuthenticator({
    namespace: 'orch-system',
    secretType: 'bootstrap.orch.io/token',
    getSecret: async (ns, name) => (ns === 'orch-system' && name === 'bootstrap-token-abcdef' ? obj : undefined),
    now: () => NOW,
  });
}

const TOKEN = 'abcdef.0123456789abcdef';

test('a valid token is system:bootstrap:<id> in system:bootstrappers plus valid extra groups, sorted', async () => {
  assert.deepEqual(await authWith(secret(valid)).authenticateToken(TOKEN), { name: 'system:bootstrap:abcdef', groups: ['system:bootstrappers'] });
  const extra = secret({ ...valid, 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:kubeadm:default-node-token' });
  assert.deepEqual((await authWith(extra).authenticateToken(TOKEN))?.groups, [
    'system:bootstrappers',
    'system:bootstrappers:kubeadm:default-node-token',
    'system:bootstrappers:worker',
  ]);
});

test('every mismatch is not-mine, never an error', async () => {
  const cases: [string, Obj | undefined, string?][] = [
    ['no secret', undefined],
    ['wrong secret', secret(valid), 'abcdef.0123456789abcdee'],
    ['malformed token', secret(valid), 'ABCDEF.0123456789abcdef'],
    ['wrong type', secret(valid, { type: 'Opaque' })],
    ['deleting', secret(valid, { metadata: { name: 'bootstrap-token-abcdef', deletionTimestamp: '2026-01-01T00:00:00Z' } })],
    ['token-id differs', secret({ ...valid, 'token-id': 'zzzzzz' })],
    ['not for authentication', secret({ ...valid, 'usage-bootstrap-authentication': 'false' })],
    ['expired', secret({ ...valid, expiration: '2026-05-31T23:59:59Z' })],
    ['unparseable expiration', secret({ ...valid, expiration: 'tomorrow' })],
    ['invalid extra group', secret({ ...valid, 'auth-extra-groups': 'system:masters' })],
    ['no data', secret({}, { data: undefined })],
  ];
  for (const [why, obj, token] of cases) {
    assert.equal(await authWith(obj).authenticateToken(token ?? TOKEN), undefined, why);
  }
});

test('expiration: absent never expires; future is valid', () => {
  assert.equal(isExpired(undefined, NOW), false);
  assert.equal(isExpired('2027-01-01T00:00:00Z', NOW), false);
  assert.equal(isExpired('2026-06-01T00:00:00Z', NOW), true);
});
