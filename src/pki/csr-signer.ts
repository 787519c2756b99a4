/**
 * Signing of PKCS#10 certificate requests by a CA, as kube-controller-manager's csrsigning
 * controller does (`pkg/controller/certificates/authority`): subject and subject alternative
 * names from the request, key usages from the CertificateSigningRequest's `spec.usages`,
 * back-dated five minutes and never valid beyond the CA.
 */
import type * as X509 from '@peculiar/x509';
import { type Ca, EC_SIGN, loadCa, loadX509, randomSerial } from './certificates.js';

/** What a signer checks of a request before signing (upstream's x509.CertificateRequest fields). */
export interface ParsedCertificateRequest {
  commonName: string;
  organizations: string[];
  dnsNames: string[];
  ipAddresses: string[];
  emailAddresses: string[];
  uris: string[];
}

/** Signs a PEM request with the given usages for ttlSeconds; resolves to the certificate PEM. */
export type CertificateRequestSigner = (csrPem: string, usages: readonly string[], ttlSeconds: number) => Promise<string>;

// Upstream's authority back-dates by five minutes so clocks slightly behind still accept it.
const BACKDATE_MS = 5 * 60 * 1000;

/** The request of a PEM CSR, its self-signature verified; throws on anything else. */
export async function parseCertificateRequest(csrPem: string): Promise<ParsedCertificateRequest> {
  const x509 = await loadX509();
  const req = await readRequest(x509, csrPem);
  const names = sanOf(x509, req);
  return {
    commonName: req.subjectName.getField('CN')[0] ?? '',
    organizations: req.subjectName.getField('O'),
    dnsNames: names.filter((n) => n.type === 'dns').map((n) => n.value),
    ipAddresses: names.filter((n) => n.type === 'ip').map((n) => n.value),
    emailAddresses: names.filter((n) => n.type === 'email').map((n) => n.value),
    uris: names.filter((n) => n.type === 'url').map((n) => n.value),
  };
}

/**
 * A signer for the CA pair (`--cluster-signing-cert-file`/`--cluster-signing-key-file`). The
 * library and CA load on the first request, so a start with no requests never pays for them.
 */
export function certificateRequestSigner(caCertPem: string, caKeyPem: string, caKeyPath: string): CertificateRequestSigner {
  let ready: Promise<{ x509: typeof X509; ca: Ca }> | undefined;
  return async (csrPem, usages, ttlSeconds) => {
    ready ??= loadX509().then(async (x509) => ({ x509, ca: await loadCa(x509, caCertPem, caKeyPem, caKeyPath) }));
    const { x509, ca } = await ready;
    return signRequest(x509, ca, csrPem, usages, ttlSeconds);
  };
}

async function signRequest(x509: typeof X509, ca: Ca, csrPem: string, usages: readonly string[], ttlSeconds: number): Promise<string> {
  const req = await readRequest(x509, csrPem);
  const { keyUsage, extendedKeyUsages } = usageExtensions(x509, usages);
  const now = Date.now();
  // Upstream caps the certificate at the CA's own expiry rather than outliving it.
  const notAfter = Math.min(now + ttlSeconds * 1000, ca.cert.notAfter.getTime());
  const names = sanOf(x509, req);
  const extensions: X509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    await x509.AuthorityKeyIdentifierExtension.create(ca.cert.publicKey),
  ];
  // Go omits the extension when no bit is asked for; an empty one would forbid every use of the key.
  if (keyUsage !== 0) extensions.push(new x509.KeyUsagesExtension(keyUsage, true));
  if (extendedKeyUsages.length > 0) extensions.push(new x509.ExtendedKeyUsageExtension(extendedKeyUsages, false));
  if (names.length > 0)
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        names.map((n) => ({ type: n.type, value: n.value })),
        false,
      ),
    );
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: randomSerial(),
    subject: req.subjectName,
    issuer: ca.cert.subjectName,
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(notAfter),
    signingAlgorithm: EC_SIGN,
    publicKey: req.publicKey,
    signingKey: ca.privateKey,
    extensions,
  });
  return `${cert.toString('pem')}\n`;
}

async function readRequest(x509: typeof X509, csrPem: string): Promise<X509.Pkcs10CertificateRequest> {
  let req: X509.Pkcs10CertificateRequest;
  try {
    req = new x509.Pkcs10CertificateRequest(csrPem);
  } catch (err) {
    throw new Error(`PEM block type must be CERTIFICATE REQUEST: ${(err as Error).message}`);
  }
  if (!(await req.verify())) throw new Error('x509: ECDSA verification failure');
  return req;
}

function sanOf(x509: typeof X509, req: X509.Pkcs10CertificateRequest): { type: X509.GeneralNameType; value: string }[] {
  const ext = req.extensions.find((e) => e.type === '2.5.29.17');
  if (!ext) return [];
  const san = ext instanceof x509.SubjectAlternativeNameExtension ? ext : new x509.SubjectAlternativeNameExtension(ext.rawData);
  return san.names.items.map((n) => ({ type: n.type, value: n.value }));
}

/** upstream's keyUsagesFromStrings: each CSR usage to a key usage bit or an extended key usage. */
function usageExtensions(x509: typeof X509, usages: readonly string[]): { keyUsage: number; extendedKeyUsages: string[] } {
  const F = x509.KeyUsageFlags;
  const bits = new Map<string, number>([
    ['signing', F.digitalSignature],
    ['digital signature', F.digitalSignature],
    ['content commitment', F.nonRepudiation],
    ['key encipherment', F.keyEncipherment],
    ['key agreement', F.keyAgreement],
    ['data encipherment', F.dataEncipherment],
    ['cert sign', F.keyCertSign],
    ['crl sign', F.cRLSign],
    ['encipher only', F.encipherOnly],
    ['decipher only', F.decipherOnly],
  ]);
  const extended = new Map<string, string>([
    ['any', '2.5.29.37.0'],
    ['server auth', x509.ExtendedKeyUsage.serverAuth],
    ['client auth', x509.ExtendedKeyUsage.clientAuth],
    ['code signing', x509.ExtendedKeyUsage.codeSigning],
    ['email protection', x509.ExtendedKeyUsage.emailProtection],
    ['s/mime', x509.ExtendedKeyUsage.emailProtection],
    ['ipsec end system', '1.3.6.1.5.5.7.3.5'],
    ['ipsec tunnel', '1.3.6.1.5.5.7.3.6'],
    ['ipsec user', '1.3.6.1.5.5.7.3.7'],
    ['timestamping', x509.ExtendedKeyUsage.timeStamping],
    ['ocsp signing', x509.ExtendedKeyUsage.ocspSigning],
    ['microsoft sgc', '1.3.6.1.4.1.311.10.3.3'],
    ['netscape sgc', '2.16.840.1.113730.4.1'],
  ]);
  let keyUsage = 0;
  const extendedKeyUsages: string[] = [];
  for (const u of usages) {
    const bit = bits.get(u);
    const eku = extended.get(u);
    if (bit !== undefined) keyUsage |= bit;
    else if (eku !== undefined) {
      if (!extendedKeyUsages.includes(eku)) extendedKeyUsages.push(eku);
    } else throw new Error(`unrecognized usage: ${u}`);
  }
  return { keyUsage, extendedKeyUsages };
}
