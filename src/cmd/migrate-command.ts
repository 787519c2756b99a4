/**
 * `orch migrate --from <data dir> --to-etcd <urls>`: copies a SQLite cluster's state into an
 * empty etcd, so a cluster that outgrew one machine continues on etcd with several replicas
 * (`--storage-backend=etcd3`). The source must not be in use (its data-dir lock is taken);
 * a target that holds any key under the prefix is refused, so a second run changes nothing.
 */
import { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { copyStore, TargetNotEmptyError } from '../storage/copy.js';
import { STORAGE_ROOT } from '../registry/resource-info.js';
import { DEFAULT_ETCD_PREFIX } from '../storage/etcd/layout.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { lockDataDir } from './data-dir-lock.js';

interface MigrateFlags {
  from: string;
  toEtcd: string[];
  etcdPrefix: string;
  etcdCafile?: string;
  etcdCertfile?: string;
  etcdKeyfile?: string;
}

function commaList(value: string, previous: string[]): string[] {
  return [...previous, ...value.split(',').filter((v) => v !== '')];
}

/** Runs the subcommand on argv (after `migrate`); prints one summary line, or one error line and exit code 1. */
export async function runMigrateCommand(argv: string[]): Promise<void> {
  const program = new Command('orch migrate')
    .description("copy a SQLite cluster's state (its data directory) into an empty etcd")
    .requiredOption('--from <dir>', 'the data directory of the SQLite cluster (the server must be stopped)')
    .requiredOption('--to-etcd <urls>', 'etcd client URLs, comma-separated', commaList, [])
    .option('--etcd-prefix <prefix>', 'the prefix orch keys live under in etcd (as --etcd-prefix)', DEFAULT_ETCD_PREFIX)
    .option('--etcd-cafile <file>', 'CA bundle etcd serving certificates are verified against')
    .option('--etcd-certfile <file>', 'client certificate (PEM) presented to etcd')
    .option('--etcd-keyfile <file>', 'key of --etcd-certfile (PEM)')
    .exitOverride();
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    process.exitCode = (e as { exitCode?: number }).exitCode ?? 1;
    return;
  }
  try {
    console.log(await migrate(program.opts<MigrateFlags>()));
  } catch (err) {
    console.error(`orch migrate: ${(err as Error).message}`);
    process.exitCode = 1;
  }
}

/** The migration itself; resolves to the summary line. */
export async function migrate(flags: MigrateFlags): Promise<string> {
  const dataDir = resolve(flags.from);
  const dbPath = join(dataDir, 'state.db');
  if (!existsSync(dbPath)) throw new Error(`no orch store in ${dataDir} (${dbPath} does not exist): pass the --data-dir of the SQLite cluster`);
  if (flags.toEtcd.length === 0) throw new Error('--to-etcd must name at least one etcd client URL');
  const lock = lockDataDir(dataDir);
  const source = SqliteStore.open(dbPath);
  try {
    const { EtcdStore } = await import('../storage/etcd/etcd-store.js');
    const target = await EtcdStore.connect({
      servers: flags.toEtcd,
      prefix: flags.etcdPrefix,
      keyRoot: STORAGE_ROOT,
      caFile: flags.etcdCafile,
      certFile: flags.etcdCertfile,
      keyFile: flags.etcdKeyfile,
    }).catch((err: Error) => {
      throw new Error(`cannot reach etcd at ${flags.toEtcd.join(',')} (${err.message})`);
    });
    try {
      const result = await copyStore(source, target).catch((err: unknown) => {
        if (err instanceof TargetNotEmptyError) {
          throw new Error(
            `etcd at ${flags.toEtcd.join(',')} already holds ${err.keys} keys under ${flags.etcdPrefix}: migrate only into an empty etcd (or choose another --etcd-prefix)`,
          );
        }
        throw err;
      });
      return `copied ${result.copied} keys from ${dataDir} (revision ${result.sourceRevision}) to etcd at ${flags.toEtcd.join(',')} under ${flags.etcdPrefix}`;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
    lock.release();
  }
}
