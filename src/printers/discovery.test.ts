import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { discoveryPrinters } from './discovery.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const slices = discoveryPrinters().EndpointSlice;

describe('discovery printers: EndpointSlice (TestPrintEndpointSlice)', () => {
  it('prints ports and addresses, three at most', () => {
    assert.deepEqual(
      slices.columns.map((c) => c.name),
      ['Name', 'AddressType', 'Ports', 'Endpoints', 'Age'],
    );
    const one = {
      metadata: { name: 'abcslice.123' },
      addressType: 'IPv4',
      ports: [{ name: 'http', port: 80 }],
      endpoints: [{ addresses: ['10.1.2.3', '2001:db8::1234:5678'] }],
    };
    assert.deepEqual(slices.rows(one, NOW)[0], ['abcslice.123', 'IPv4', '80', '10.1.2.3,2001:db8::1234:5678', '<unknown>']);
    const many = {
      metadata: { name: 'longerslicename.123' },
      addressType: 'IPv6',
      ports: [{ name: 'http', port: 80 }, { name: 'https', port: 443 }, { name: 'named' }, {}, { port: 8080 }],
      endpoints: [{ addresses: ['10.1.2.3', '2001:db8::1234:5678'] }, { addresses: ['10.2.3.4', '2001:db8::2345:6789'] }],
    };
    assert.deepEqual(slices.rows(many, NOW)[0].slice(2, 4), ['80,443,named + 2 more...', '10.1.2.3,2001:db8::1234:5678,10.2.3.4 + 1 more...']);
    assert.deepEqual(slices.rows({ metadata: { name: 'empty' }, addressType: 'FQDN' }, NOW)[0].slice(2, 4), ['<unset>', '<unset>']);
  });
});
