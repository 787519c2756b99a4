/**
 * The control plane's own PKI: a self-signed CA, the API server's serving certificate and an
 * admin client certificate, created once per data directory and read back on every later start.
 */
import { webcrypto } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
// Types only: the library costs ~130 ms to import, so it is loaded lazily (see loadX509) and a
// restart with existing certificates never pays for it.
import type * as X509 from '@peculiar/x509';
import { checkPair, checkSignedBy, PkiFileError, regenerateFix } from './check.js';

export interface PkiMaterial {
  caCertPem: string;
  caKeyPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  adminCertPem: string;
  adminKeyPem: string;
  paths: PkiPaths;
}

export interface PkiPaths {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
}

export interface CertificateOptions {
  /** DNS names the serving certificate is valid for (e.g. `localhost`, `orch.default.svc`). */
  hosts: string[];
  /** IP addresses the serving certificate is valid for (e.g. `127.0.0.1`, `::1`). */
  ips: string[];
}

/** Subject of the admin client certificate: user `admin` in the all-powerful group. */
export const ADMIN_USER = 'admin';
export const ADMIN_GROUP = 'system:masters';
const CA_COMMON_NAME = 'orch-ca';
const SERVER_COMMON_NAME = 'orch-apiserver';

const DAY_MS = 24 * 60 * 60 * 1000;
const CA_VALIDITY_MS = 10 * 365 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
// Back-date like client-go's self-signed helper, so a peer whose clock is a little behind
// does not reject a certificate created a moment ago.
const BACKDATE_MS = 60 * 60 * 1000;

const EC_KEY: EcKeyGenParams = { name: 'ECDSA', namedCurve: 'P-256' };
export const EC_SIGN: EcdsaParams = { name: 'ECDSA', hash: 'SHA-256' };

const subtle = webcrypto.subtle as SubtleCrypto;

let x509Module: Promise<typeof X509> | undefined;

/** The x509 library, loaded once on first use. */
export function loadX509(): Promise<typeof X509> {
  x509Module ??= (async () => {
    // @peculiar/x509 2.x resolves its providers through tsyringe, which needs this polyfill first.
    await import('reflect-metadata');
    const lib = await import('@peculiar/x509');
    lib.cryptoProvider.set(webcrypto as Crypto);
    return lib;
  })();
  return x509Module;
}

/** Paths of the six PEM files inside `certDir`; pure. */
export function pkiPaths(certDir: string): PkiPaths {
  return {
    caCert: join(certDir, 'ca.crt'),
    caKey: join(certDir, 'ca.key'),
    serverCert: join(certDir, 'apiserver.crt'),
    serverKey: join(certDir, 'apiserver.key'),
    adminCert: join(certDir, 'admin.crt'),
    adminKey: join(certDir, 'admin.key'),
  };
}

/**
 * Returns the PKI of `certDir`, creating whatever is missing; existing files are never replaced.
 * An existing CA (e.g. one the operator supplied) is reused to sign missing leaf certificates.
 */
export async function ensureCertificates(certDir: string, opts: CertificateOptions): Promise<PkiMaterial> {
  const paths = pkiPaths(certDir);
  const [caCertPem, caKeyPem, serverCertPem, serverKeyPem, adminCertPem, adminKeyPem] = await Promise.all(
    [paths.caCert, paths.caKey, paths.serverCert, paths.serverKey, paths.adminCert, paths.adminKey].map(readIfExists),
  );
  checkExisting(certDir, paths, { caCertPem, caKeyPem, serverCertPem, serverKeyPem, adminCertPem, adminKeyPem });
  // Fast path (every restart): six small reads and their checks, no key generation.
  if (caCertPem && caKeyPem && serverCertPem && serverKeyPem && adminCertPem && adminKeyPem) {
    return { caCertPem, caKeyPem, serverCertPem, serverKeyPem, adminCertPem, adminKeyPem, paths };
  }
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const x509 = await loadX509();

  const ca = caCertPem && caKeyPem ? await loadCa(x509, caCertPem, caKeyPem, paths.caKey) : await createCa(x509);
  if (!(caCertPem && caKeyPem)) {
    // The CA is written before the leaves: a crash in between leaves a usable CA that the next
    // start reuses, instead of leaves signed by a CA that no longer exists.
    await writeAtomic(paths.caKey, ca.keyPem, 0o600);
    await writeAtomic(paths.caCert, ca.certPem, 0o600);
  }

  const [server, admin] = await Promise.all([
    serverCertPem && serverKeyPem ? { certPem: serverCertPem, keyPem: serverKeyPem } : createServing(x509, ca, opts),
    adminCertPem && adminKeyPem ? { certPem: adminCertPem, keyPem: adminKeyPem } : createAdmin(x509, ca),
  ]);
  if (!(serverCertPem && serverKeyPem)) {
    await writeAtomic(paths.serverKey, server.keyPem, 0o600);
    await writeAtomic(paths.serverCert, server.certPem, 0o600);
  }
  if (!(adminCertPem && adminKeyPem)) {
    await writeAtomic(paths.adminKey, admin.keyPem, 0o600);
    await writeAtomic(paths.adminCert, admin.certPem, 0o600);
  }
  return {
    caCertPem: ca.certPem,
    caKeyPem: ca.keyPem,
    serverCertPem: server.certPem,
    serverKeyPem: server.keyPem,
    adminCertPem: admin.certPem,
    adminKeyPem: admin.keyPem,
    paths,
  };
}

export interface Issued {
  certPem: string;
  keyPem: string;
}

export interface Ca extends Issued {
  cert: X509.X509Certificate;
  privateKey: CryptoKey;
}

/** A new self-signed CA named commonName (default: the cluster CA's name). */
export async function createCa(x509: typeof X509, commonName = CA_COMMON_NAME): Promise<Ca> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [commonName] }],
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + CA_VALIDITY_MS),
    signingAlgorithm: EC_SIGN,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return {
    cert,
    privateKey: keys.privateKey,
    certPem: `${cert.toString('pem')}\n`,
    keyPem: await exportKeyPem(x509, keys.privateKey),
  };
}

/** The CA pair from PEM, ready to sign; a PkiFileError naming caKeyPath when the key cannot sign. */
export async function loadCa(x509: typeof X509, certPem: string, keyPem: string, caKeyPath: string): Promise<Ca> {
  const cert = new x509.X509Certificate(certPem);
  // Only PKCS#8 P-256 keys are accepted: that is what createCa writes, and signing with another
  // algorithm would need a different signingAlgorithm below.
  try {
    const der = x509.PemConverter.decodeFirst(keyPem);
    const privateKey = await subtle.importKey('pkcs8', der, EC_KEY, false, ['sign']);
    return { cert, privateKey, certPem, keyPem };
  } catch {
    throw new PkiFileError(
      `${caKeyPath} is not a PKCS#8 P-256 (ECDSA) key, the only kind this server signs with: provide one, or provide every missing certificate in ${dirname(caKeyPath)} yourself`,
    );
  }
}

interface ExistingPem {
  caCertPem?: string;
  caKeyPem?: string;
  serverCertPem?: string;
  serverKeyPem?: string;
  adminCertPem?: string;
  adminKeyPem?: string;
}

/**
 * Throws a PkiFileError for a file that exists but cannot serve: not PEM, a key that is not its
 * certificate's, or a leaf the CA did not sign (clients verify the server, and the server its
 * clients, with that CA). Costs a few milliseconds, no key generation.
 */
function checkExisting(certDir: string, paths: PkiPaths, pem: ExistingPem): void {
  const caFix = `replace ca.crt and ca.key with a valid pair, or delete ${certDir} to create a new CA and certificates (clients then need the new admin.kubeconfig)`;
  const ca = pem.caCertPem && pem.caKeyPem ? checkPair(paths.caCert, pem.caCertPem, paths.caKey, pem.caKeyPem, caFix) : undefined;
  const leaves: [string, string, string | undefined, string | undefined][] = [
    [paths.serverCert, paths.serverKey, pem.serverCertPem, pem.serverKeyPem],
    [paths.adminCert, paths.adminKey, pem.adminCertPem, pem.adminKeyPem],
  ];
  for (const [certPath, keyPath, certPem, keyPem] of leaves) {
    if (!certPem || !keyPem) continue;
    const fix = regenerateFix(certPath, keyPath);
    const leaf = checkPair(certPath, certPem, keyPath, keyPem, fix);
    if (ca) checkSignedBy(certPath, leaf, ca, paths.caCert, fix);
  }
}

function createServing(x509: typeof X509, ca: Ca, opts: CertificateOptions): Promise<Issued> {
  const names: X509.JsonGeneralName[] = [
    ...unique(opts.hosts).map((value) => ({ type: 'dns' as const, value })),
    ...unique(opts.ips).map((value) => ({ type: 'ip' as const, value })),
  ];
  return issueLeaf(x509, ca, [{ CN: [SERVER_COMMON_NAME] }], x509.ExtendedKeyUsage.serverAuth, [new x509.SubjectAlternativeNameExtension(names, false)]);
}

function createAdmin(x509: typeof X509, ca: Ca): Promise<Issued> {
  // Organization first, common name last: RDN order as `CN=admin, O=system:masters` reads.
  return issueLeaf(x509, ca, [{ O: [ADMIN_GROUP] }, { CN: [ADMIN_USER] }], x509.ExtendedKeyUsage.clientAuth, []);
}

async function issueLeaf(x509: typeof X509, ca: Ca, subject: X509.JsonName, usage: X509.ExtendedKeyUsage, extra: X509.Extension[]): Promise<Issued> {
  const keys = await generateKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject,
    issuer: ca.cert.subjectName,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + LEAF_VALIDITY_MS),
    signingAlgorithm: EC_SIGN,
    publicKey: keys.publicKey,
    signingKey: ca.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([usage], false),
      await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
      ...extra,
    ],
  });
  return { certPem: `${cert.toString('pem')}\n`, keyPem: await exportKeyPem(x509, keys.privateKey) };
}

/** A client certificate for any user and groups (CN = user, each O a group), signed by the CA in certDir. */
export async function issueClientCertificate(caCertPem: string, caKeyPem: string, user: string, groups: readonly string[]): Promise<Issued> {
  const x509 = await loadX509();
  const ca = await loadCa(x509, caCertPem, caKeyPem, 'the CA key');
  const subject: X509.JsonName = [...groups.map((g) => ({ O: [g] })), { CN: [user] }];
  return issueLeaf(x509, ca, subject, x509.ExtendedKeyUsage.clientAuth, []);
}

function generateKeys(): Promise<CryptoKeyPair> {
  return subtle.generateKey(EC_KEY, true, ['sign', 'verify']) as Promise<CryptoKeyPair>;
}

async function exportKeyPem(x509: typeof X509, key: CryptoKey): Promise<string> {
  // PKCS#8 (`BEGIN PRIVATE KEY`): what WebCrypto exports and what node:tls loads directly.
  const der = await subtle.exportKey('pkcs8', key);
  return `${x509.PemConverter.encode(der, 'PRIVATE KEY')}\n`;
}

/** A random positive 128-bit serial, as hex. */
export function randomSerial(): string {
  const bytes = Buffer.from(webcrypto.getRandomValues(new Uint8Array(16)));
  // A serial is a positive INTEGER: clear the sign bit and keep it non-zero.
  bytes.writeUInt8((bytes.readUInt8(0) & 0x7f) | 0x01, 0);
  return bytes.toString('hex');
}

function unique(values: string[]): string[] {
  return [...new Set(values.filter((v) => v.length > 0))];
}

/** The file's text, or undefined when it does not exist; a PkiFileError when it cannot be read. */
export async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new PkiFileError(`cannot read ${path} (${(err as Error).message}): make it a readable file, or delete it to have it created`);
  }
}

/** Writes a file whole or not at all (write, then rename). */
export async function writeAtomic(path: string, content: string, mode: number): Promise<void> {
  // Write-then-rename so a concurrent reader sees either no file or a whole one.
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(tmp, content, { mode });
  } catch (err) {
    throw new PkiFileError(`cannot write ${tmp} (${(err as Error).message}): check that its directory is writable`);
  }
  await rename(tmp, path);
}

/**
 * client-go's GenerateSelfSignedCertKeyWithFixtures: a throw-away CA `<host>-ca@<unix time>` and a
 * serving certificate `<host>@<unix time>` for host plus the given IPs and DNS names; the
 * certificate PEM holds the leaf followed by that CA, as upstream writes it. What a component's
 * secure port serves when no --tls-cert-file is given.
 */
export async function generateSelfSignedServing(host: string, ips: readonly string[], dns: readonly string[]): Promise<Issued> {
  const x509 = await loadX509();
  const stamp = Math.floor(Date.now() / 1000);
  const keys = await generateKeys();
  const now = Date.now();
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomSerial(),
    name: [{ CN: [`${host}-ca@${stamp}`] }],
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + LEAF_VALIDITY_MS),
    signingAlgorithm: EC_SIGN,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const ca: Ca = { cert: caCert, privateKey: keys.privateKey, certPem: `${caCert.toString('pem')}\n`, keyPem: '' };
  const hostIsIp = /^[\d.]+$/.test(host) || host.includes(':');
  const names: X509.JsonGeneralName[] = [
    ...unique([...(hostIsIp ? [] : [host]), ...dns]).map((value) => ({ type: 'dns' as const, value })),
    ...unique([...(hostIsIp ? [host] : []), ...ips]).map((value) => ({ type: 'ip' as const, value })),
  ];
  const leaf = await issueLeaf(x509, ca, [{ CN: [`${host}@${stamp}`] }], x509.ExtendedKeyUsage.serverAuth, [
    new x509.SubjectAlternativeNameExtension(names, false),
  ]);
  return { certPem: `${leaf.certPem}${ca.certPem}`, keyPem: leaf.keyPem };
}
