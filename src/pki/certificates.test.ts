import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createSecureContext } from 'node:tls';
import { ensureCertificates, type PkiMaterial } from './certificates.js';
import { PkiFileError } from './check.js';

const OPTS = { hosts: ['localhost', 'orch', 'orch.default.svc'], ips: ['127.0.0.1', '::1'] };

/**
 * CPU milliseconds this process used since `from`: what these bounds are about is the work done,
 * which a machine busy with other work does not stretch as it stretches wall-clock time.
 */
function cpuMsSince(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

describe('ensureCertificates', () => {
  let dir: string;
  let created: PkiMaterial;
  let createMs: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-pki-'));
    const cpu = process.cpuUsage();
    created = await ensureCertificates(join(dir, 'pki'), OPTS);
    createMs = cpuMsSince(cpu);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('creates a CA, a serving and an admin certificate, quickly', () => {
    // Includes the lazy import of @peculiar/x509 (~130 ms); the crypto itself is ~30 ms.
    console.log(`# create: ${createMs.toFixed(1)} ms of CPU`);
    assert.ok(createMs < 1000, `creation took ${createMs} ms of CPU`);
    const ca = new X509Certificate(created.caCertPem);
    assert.equal(ca.subject, 'CN=orch-ca');
    assert.equal(ca.ca, true);
    assert.ok(ca.checkIssued(ca));

    const server = new X509Certificate(created.serverCertPem);
    assert.ok(server.checkIssued(ca) && server.verify(ca.publicKey));
    assert.equal(server.ca, false);
    for (const name of ['DNS:localhost', 'DNS:orch', 'DNS:orch.default.svc', 'IP Address:127.0.0.1']) {
      assert.ok(server.subjectAltName?.includes(name), `${name} in ${server.subjectAltName}`);
    }
    assert.ok(server.checkHost('orch.default.svc'));
    assert.ok(server.checkIP('127.0.0.1'));
    assert.ok(server.checkIP('::1'));
    assert.deepEqual(server.keyUsage, ['1.3.6.1.5.5.7.3.1']);

    const admin = new X509Certificate(created.adminCertPem);
    assert.ok(admin.checkIssued(ca) && admin.verify(ca.publicKey));
    assert.deepEqual(admin.subject.split('\n').sort(), ['CN=admin', 'O=system:masters']);
    assert.deepEqual(admin.keyUsage, ['1.3.6.1.5.5.7.3.2']);
  });

  test('keys are PKCS#8, private to the owner, and loadable by node:tls', async () => {
    for (const key of [created.caKeyPem, created.serverKeyPem, created.adminKeyPem]) {
      assert.match(key, /^-----BEGIN PRIVATE KEY-----\n/);
    }
    for (const path of [created.paths.caKey, created.paths.serverKey, created.paths.adminKey]) {
      assert.equal((await stat(path)).mode & 0o777, 0o600, path);
    }
    assert.doesNotThrow(() => createSecureContext({ cert: created.serverCertPem, key: created.serverKeyPem }));
    assert.doesNotThrow(() => createSecureContext({ cert: created.adminCertPem, key: created.adminKeyPem }));
  });

  test('a second call reads the same material back, in a few milliseconds', async () => {
    const cpu = process.cpuUsage();
    const again = await ensureCertificates(join(dir, 'pki'), { hosts: ['other'], ips: [] });
    const readMs = cpuMsSince(cpu);
    console.log(`# re-read: ${readMs.toFixed(2)} ms of CPU`);
    assert.ok(readMs < 50, `re-read took ${readMs} ms of CPU`);
    assert.deepEqual(again, created);
  });

  test('missing leaves are re-issued by the existing CA', async () => {
    await unlink(created.paths.adminCert);
    await unlink(created.paths.adminKey);
    const repaired = await ensureCertificates(join(dir, 'pki'), OPTS);
    assert.equal(repaired.caCertPem, created.caCertPem);
    assert.equal(repaired.serverCertPem, created.serverCertPem);
    assert.notEqual(repaired.adminCertPem, created.adminCertPem);
    const ca = new X509Certificate(repaired.caCertPem);
    assert.ok(new X509Certificate(repaired.adminCertPem).verify(ca.publicKey));
  });
});

describe('ensureCertificates refuses unusable files with one line naming the file and the fix', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'orch-pki-bad-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** A fresh, complete PKI directory. */
  async function fresh(name: string): Promise<PkiMaterial> {
    return ensureCertificates(join(dir, name), OPTS);
  }

  test('a ca.crt and ca.key that are not PEM', async () => {
    const pki = await fresh('garbage');
    await writeFile(pki.paths.caCert, 'garbage\n');
    await writeFile(pki.paths.caKey, 'garbage\n');
    await assert.rejects(ensureCertificates(join(dir, 'garbage'), OPTS), (err: Error) => {
      assert.ok(err instanceof PkiFileError);
      assert.match(err.message, /garbage\/ca\.crt is not a PEM certificate .*: replace ca\.crt and ca\.key with a valid pair, or delete .*garbage/);
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
  });

  test('a key that is not its certificate', async () => {
    const pki = await fresh('swapped');
    await writeFile(pki.paths.serverKey, pki.adminKeyPem);
    await assert.rejects(
      ensureCertificates(join(dir, 'swapped'), OPTS),
      /swapped\/apiserver\.key is not the key of .*apiserver\.crt: .*delete apiserver\.crt and apiserver\.key/,
    );
  });

  test('a leaf signed by another CA', async () => {
    const pki = await fresh('mine');
    const other = await fresh('other');
    await writeFile(pki.paths.adminCert, other.adminCertPem);
    await writeFile(pki.paths.adminKey, other.adminKeyPem);
    await assert.rejects(ensureCertificates(join(dir, 'mine'), OPTS), /mine\/admin\.crt was not signed by .*mine\/ca\.crt/);
  });
});
