/**
 * The `--tls-*` flags of a component's secure port as Node's TLS options: Go's cipher suite
 * names (crypto/tls, as k8s.io/component-base/cli/flag lists them) mapped to OpenSSL's,
 * `VersionTLS1x` names to Node's, and `--tls-sni-cert-key` pairs with the host names each serves
 * (given patterns, or the certificate's own names as upstream reads them).
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { SecureVersion } from 'node:tls';

const CIPHER_SUITES = new Map<string, string>([
  ['TLS_RSA_WITH_RC4_128_SHA', 'RC4-SHA'],
  ['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA'],
  ['TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA'],
  ['TLS_RSA_WITH_AES_128_CBC_SHA256', 'AES128-SHA256'],
  ['TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256'],
  ['TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384'],
  ['TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'ECDHE-ECDSA-RC4-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA'],
  ['TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'ECDHE-RSA-RC4-SHA'],
  ['TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-RSA-DES-CBC3-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA'],
  ['TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256'],
  ['TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305'],
  ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305'],
  // TLS 1.3 suites: OpenSSL spells them as Go does.
  ['TLS_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256'],
  ['TLS_AES_256_GCM_SHA384', 'TLS_AES_256_GCM_SHA384'],
  ['TLS_CHACHA20_POLY1305_SHA256', 'TLS_CHACHA20_POLY1305_SHA256'],
]);

/** Go's names of the accepted suites, for --help. */
export const CIPHER_SUITE_NAMES: readonly string[] = [...CIPHER_SUITES.keys()];

const VERSIONS = new Map<string, SecureVersion>([
  ['VersionTLS10', 'TLSv1'],
  ['VersionTLS11', 'TLSv1.1'],
  ['VersionTLS12', 'TLSv1.2'],
  ['VersionTLS13', 'TLSv1.3'],
]);

/** The OpenSSL cipher list of Go suite names; throws upstream's error for an unknown one. */
export function opensslCiphers(names: readonly string[]): string {
  return names
    .map((n) => {
      const o = CIPHER_SUITES.get(n);
      if (o === undefined) throw new Error(`Cipher suite ${n} not supported or doesn't exist`);
      return o;
    })
    .join(':');
}

/** Node's minVersion for `--tls-min-version`; throws upstream's error for an unknown one. */
export function nodeTlsVersion(name: string): SecureVersion {
  const v = VERSIONS.get(name);
  if (v === undefined) throw new Error(`unknown tls version ${JSON.stringify(name)}`);
  return v;
}

export interface NamedCertKey {
  certFile: string;
  keyFile: string;
  names: string[];
}

/** One `--tls-sni-cert-key` value (`cert,key[:name,name...]`), as pflag's NamedCertKey parses it. */
export function parseNamedCertKey(value: string): NamedCertKey {
  const colon = value.indexOf(':');
  const files = (colon < 0 ? value : value.slice(0, colon)).split(',');
  if (files.length !== 2) throw new Error('expected comma separated certificate and key file paths');
  const names =
    colon < 0
      ? []
      : value
          .slice(colon + 1)
          .split(',')
          .map((n) => n.trim())
          .filter((n) => n !== '');
  return { certFile: files[0].trim(), keyFile: files[1].trim(), names };
}

export interface SniEntry {
  certPem: string;
  keyPem: string;
  names: string[];
}

/** Reads an SNI pair; without patterns its names are the certificate's CN and subject alternative names. */
export function readSniEntry(nck: NamedCertKey): SniEntry {
  const certPem = readFileSync(nck.certFile, 'utf8');
  const keyPem = readFileSync(nck.keyFile, 'utf8');
  if (nck.names.length > 0) return { certPem, keyPem, names: nck.names };
  const cert = new X509Certificate(certPem);
  const names = new Set<string>();
  const cn = /(?:^|\n)CN=([^\n]+)/.exec(cert.subject)?.[1];
  if (cn) names.add(cn);
  for (const part of (cert.subjectAltName ?? '').split(', ')) {
    const m = /^(DNS|IP Address):(.+)$/.exec(part);
    if (m) names.add(m[2]);
  }
  return { certPem, keyPem, names: [...names] };
}

/** The entry serving a TLS server name: an exact name first, then a `*.` wildcard for one label. */
export function matchSni<T extends { names: string[] }>(entries: readonly T[], serverName: string): T | undefined {
  const host = serverName.toLowerCase();
  const exact = entries.find((e) => e.names.some((n) => n.toLowerCase() === host));
  if (exact) return exact;
  const dot = host.indexOf('.');
  if (dot < 0) return undefined;
  const wildcard = `*${host.slice(dot)}`;
  return entries.find((e) => e.names.some((n) => n.toLowerCase() === wildcard));
}
