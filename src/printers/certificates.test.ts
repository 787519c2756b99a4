import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { certificatesPrinters } from './certificates.js';

const NOW = new Date('2024-05-01T12:00:00Z');
const csr = certificatesPrinters().CertificateSigningRequest;
const row = (spec: Obj, status: Obj = {}) => csr.rows({ metadata: { name: 'csr1' }, spec: { username: 'CSRRequestor', ...spec }, status }, NOW)[0];

describe('certificates printers: CertificateSigningRequest (TestPrintCertificateSigningRequest)', () => {
  it('has upstream columns', () => {
    assert.deepEqual(
      csr.columns.map((c) => c.name),
      ['Name', 'Age', 'SignerName', 'Requestor', 'RequestedDuration', 'Condition'],
    );
  });

  it('prints pending, approved, denied, failed and issued requests', () => {
    assert.deepEqual(row({}), ['csr1', '<unknown>', '<none>', 'CSRRequestor', '<none>', 'Pending']);
    assert.equal(row({}, { conditions: [{ type: 'Approved' }] })[5], 'Approved');
    assert.equal(row({}, { conditions: [{ type: 'Approved' }, { type: 'Denied' }] })[5], 'Denied');
    assert.equal(row({}, { conditions: [{ type: 'Approved' }, { type: 'Failed' }], certificate: 'Y2VydA==' })[5], 'Approved,Failed,Issued');
    assert.equal(row({}, { certificate: 'Y2VydA==' })[5], 'Pending,Issued');
  });

  it('prints the signer and the requested duration', () => {
    assert.deepEqual(row({ signerName: 'example.com/signer', expirationSeconds: 7200 }).slice(2, 5), ['example.com/signer', 'CSRRequestor', '120m']);
    assert.equal(row({ expirationSeconds: 86400 * 10 })[4], '10d');
  });
});
