/**
 * `orch kubeconfig --user <name> [--group <g>]...`: prints a kubeconfig for any user and groups
 * with a client certificate from the cluster's CA (CN = user, each O a group), so a person can
 * try authorization as someone else in seconds. The server address comes from the admin
 * kubeconfig the server wrote into the data dir.
 */
import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { issueClientCertificate, pkiPaths } from '../pki/certificates.js';
import { kubeconfigDocument } from '../pki/kubeconfig.js';
import { readKubeconfig } from '../pki/kubeconfig-read.js';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Runs the subcommand on argv (after `kubeconfig`); prints the kubeconfig or one error line. */
export async function runKubeconfigCommand(argv: string[]): Promise<void> {
  const program = new Command('orch kubeconfig')
    .description('print a kubeconfig for a user and groups, with a client certificate signed by the cluster CA')
    .requiredOption('--user <name>', 'user name (the certificate CN)')
    .option('--group <group>', 'a group (the certificate O); repeatable', collect, [])
    .option('--data-dir <dir>', 'the server data directory (CA and admin.kubeconfig)', './.orch')
    .option('--cert-dir <dir>', 'directory of the CA (default <data-dir>/pki)')
    .option('--server <url>', 'API server URL (default: the one in <data-dir>/admin.kubeconfig)')
    .exitOverride();
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    process.exitCode = (e as { exitCode?: number }).exitCode ?? 1;
    return;
  }
  const opts = program.opts<{ user: string; group: string[]; dataDir: string; certDir?: string; server?: string }>();
  try {
    const paths = pkiPaths(opts.certDir ?? join(opts.dataDir, 'pki'));
    const caPem = readFileSync(paths.caCert, 'utf8');
    const caKeyPem = readFileSync(paths.caKey, 'utf8');
    const server = opts.server ?? readKubeconfig(join(opts.dataDir, 'admin.kubeconfig')).server;
    const issued = await issueClientCertificate(caPem, caKeyPem, opts.user, opts.group);
    const doc = kubeconfigDocument({
      server,
      caPem,
      clientCertPem: issued.certPem,
      clientKeyPem: issued.keyPem,
      clusterName: 'orch',
      userName: opts.user,
      contextName: `${opts.user}@orch`,
    });
    process.stdout.write(stringify(doc, { lineWidth: 0 }));
  } catch (e) {
    process.stderr.write(`orch kubeconfig: ${e instanceof Error ? e.message : String(e)} (is --data-dir the directory of a server that has started once?)\n`);
    process.exitCode = 1;
  }
}
