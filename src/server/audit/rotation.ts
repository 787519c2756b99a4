/**
 * A size-rotated log file with lumberjack's semantics (what upstream's audit log backend writes
 * through): a write that would pass the size limit first renames the file to
 * `<name>-<UTC 2006-01-02T15-04-05.000><ext>` beside it and starts a new one; afterwards backups
 * past --audit-log-maxbackup (newest kept) or older than --audit-log-maxage days are removed. A
 * single write larger than the limit is refused. Every file operation is asynchronous; callers
 * write one batch at a time (the log backend's queue does).
 */
import { mkdir, open, readdir, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

const MEGABYTE = 1024 * 1024;
/** lumberjack's default when MaxSize is 0. */
const DEFAULT_MAX_SIZE_MB = 100;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RotationOptions {
  path: string;
  /** Megabytes before rotation; 0: lumberjack's 100. */
  maxSizeMB: number;
  /** Backups kept; 0: all (subject to maxAgeDays). */
  maxBackups: number;
  /** Days a backup is kept; 0: forever. */
  maxAgeDays: number;
  now?: () => number;
}

/** lumberjack's backup timestamp: `2006-01-02T15-04-05.000` in UTC. */
export function backupTimestamp(ms: number): string {
  return new Date(ms).toISOString().slice(0, 23).replace(/:/g, '-');
}

const TIMESTAMP = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/;

export class RotatingFile {
  private file: FileHandle | undefined;
  private size = 0;
  private readonly max: number;
  private readonly now: () => number;
  private readonly dir: string;
  private readonly prefix: string;
  private readonly ext: string;

  constructor(private readonly opts: RotationOptions) {
    this.max = (opts.maxSizeMB > 0 ? opts.maxSizeMB : DEFAULT_MAX_SIZE_MB) * MEGABYTE;
    this.now = opts.now ?? Date.now;
    this.dir = dirname(opts.path);
    this.ext = extname(opts.path);
    this.prefix = `${basename(opts.path, this.ext)}-`;
  }

  /** Writes each chunk whole into the current file, rotating before a chunk that would not fit. */
  async write(chunks: readonly Buffer[]): Promise<void> {
    let pending: Buffer[] = [];
    let pendingSize = 0;
    for (const chunk of chunks) {
      if (chunk.length > this.max) throw new Error(`write length ${chunk.length} exceeds maximum file size ${this.max}`);
      if (this.file === undefined) await this.openExistingOrNew(chunk.length);
      if (this.size + pendingSize + chunk.length > this.max) {
        await this.flush(pending);
        pending = [];
        pendingSize = 0;
        await this.rotate();
      }
      pending.push(chunk);
      pendingSize += chunk.length;
    }
    await this.flush(pending);
  }

  async close(): Promise<void> {
    const f = this.file;
    this.file = undefined;
    await f?.close();
  }

  private async flush(chunks: Buffer[]): Promise<void> {
    if (chunks.length === 0 || !this.file) return;
    const { bytesWritten } = await this.file.writev(chunks);
    this.size += bytesWritten;
  }

  private async openExistingOrNew(writeLen: number): Promise<void> {
    let existing: number | undefined;
    try {
      existing = (await stat(this.opts.path)).size;
    } catch {
      existing = undefined;
    }
    if (existing === undefined) return this.openNew();
    if (existing + writeLen >= this.max) return this.rotate();
    this.file = await open(this.opts.path, 'a', 0o600);
    this.size = existing;
  }

  private async rotate(): Promise<void> {
    await this.close();
    await this.openNew();
    // Removal of old backups does not hold up the writes behind it.
    this.removeOldBackups().catch((e) => console.error(`audit log: removing old backups: ${e instanceof Error ? e.message : String(e)}`));
  }

  private async openNew(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o755 });
    let mode = 0o600;
    try {
      mode = (await stat(this.opts.path)).mode & 0o777;
      await rename(this.opts.path, join(this.dir, `${this.prefix}${backupTimestamp(this.now())}${this.ext}`));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
    this.file = await open(this.opts.path, 'w', mode);
    this.size = 0;
  }

  /** Backups beyond maxBackups (oldest first to go) and those past maxAgeDays. */
  async removeOldBackups(): Promise<void> {
    const { maxBackups, maxAgeDays } = this.opts;
    if (maxBackups === 0 && maxAgeDays === 0) return;
    const backups: { name: string; time: number }[] = [];
    for (const name of await readdir(this.dir)) {
      if (!name.startsWith(this.prefix) || !name.endsWith(this.ext)) continue;
      const m = TIMESTAMP.exec(name.slice(this.prefix.length, name.length - this.ext.length));
      if (m) backups.push({ name, time: Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) });
    }
    backups.sort((a, b) => b.time - a.time);
    let remove = maxBackups > 0 ? backups.slice(maxBackups) : [];
    if (maxAgeDays > 0) {
      const cutoff = this.now() - maxAgeDays * DAY_MS;
      remove = [...new Set([...remove, ...backups.filter((b) => b.time < cutoff)])];
    }
    for (const b of remove) await unlink(join(this.dir, b.name)).catch(() => {});
  }
}
