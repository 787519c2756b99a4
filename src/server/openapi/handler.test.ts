import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { acceptClauses, negotiateSubtype } from './handler.js';

const OFFERED = ['json', 'com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'];

describe('OpenAPI media type negotiation', () => {
  it('reads an absent or empty Accept as anything, answering JSON first', () => {
    assert.equal(negotiateSubtype(undefined, OFFERED), 'json');
    assert.equal(negotiateSubtype('', OFFERED), 'json');
    assert.equal(negotiateSubtype('*/*', OFFERED), 'json');
  });

  it('serves the protobuf subtype kubectl asks for', () => {
    assert.equal(negotiateSubtype('application/com.github.proto-openapi.spec.v2@v1.0+protobuf', OFFERED), 'com.github.proto-openapi.spec.v2@v1.0+protobuf');
    assert.equal(negotiateSubtype('application/com.github.proto-openapi.spec.v2.v1.0+protobuf', OFFERED), 'com.github.proto-openapi.spec.v2.v1.0+protobuf');
  });

  it('orders clauses by quality, then specific before wildcard, as goautoneg', () => {
    assert.deepEqual(
      acceptClauses('*/*;q=0.5, application/*, application/json;q=0.9').map((c) => `${c.type}/${c.subtype}`),
      ['application/*', 'application/json', '*/*'],
    );
    assert.equal(negotiateSubtype('application/json;q=0.5, application/com.github.proto-openapi.spec.v2.v1.0+protobuf', OFFERED), OFFERED[2]);
  });

  it('finds nothing for types it does not offer', () => {
    assert.equal(negotiateSubtype('text/plain', OFFERED), undefined);
    assert.equal(negotiateSubtype('application/com.github.proto-openapi.spec.v3.v1.0+protobuf', ['json']), undefined);
  });
});
