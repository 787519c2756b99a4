import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AddressLimits, defaultMaxIdleConnectionsPerAddress } from './connection-limits.js';

describe('AddressLimits', () => {
  it('admits up to the cap of idle connections per address, each address on its own', () => {
    const l = new AddressLimits(2);
    assert.ok(l.admit('10.0.0.1'));
    assert.ok(l.admit('10.0.0.1'));
    assert.equal(l.admit('10.0.0.1'), false);
    assert.ok(l.admit('10.0.0.2'));
    l.closed('10.0.0.1');
    assert.ok(l.admit('10.0.0.1'));
  });

  it('does not count a connection while it serves requests, however many', () => {
    const l = new AddressLimits(1);
    const conn = {};
    assert.ok(l.admit('a'));
    l.requestStarted(conn, 'a');
    l.requestStarted(conn, 'a');
    assert.ok(l.admit('a'));
    assert.equal(l.admit('a'), false);
    l.requestEnded(conn);
    // One request still in flight: still busy.
    l.closed('a');
    assert.ok(l.admit('a'));
    l.requestEnded(conn);
    // Idle again: the address now holds two idle connections, over the cap of one.
    assert.equal(l.admit('a'), false);
  });

  it('ignores a request whose connection has no address any more', () => {
    const l = new AddressLimits(1);
    l.requestStarted({}, undefined);
    l.requestEnded({});
    assert.ok(l.admit('a'));
  });

  it('defaults to a quarter of the descriptor limit, at least 256', () => {
    assert.ok(defaultMaxIdleConnectionsPerAddress() >= 256);
  });
});
