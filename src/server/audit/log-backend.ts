/**
 * The log backend (`--audit-log-path`): each event one line, JSON or upstream's legacy text, to a
 * lumberjack-rotated file or to stdout (`-`). Events go through a bounded queue drained by one
 * asynchronous writer, so a slow disk never holds a request or the event loop; when the queue is
 * full the event is dropped and counted, as upstream's buffered backend drops.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AuditBackend, AuditMetrics } from './backend.js';
import { type AuditEvent, eventLegacyLine } from './event.js';
import { RotatingFile, type RotationOptions } from './rotation.js';

export interface LogBackendOptions extends Omit<RotationOptions, 'path'> {
  /** A file path, or `-` for stdout. */
  path: string;
  format: 'json' | 'legacy';
  /** Events queued at most (upstream's --audit-log-batch-buffer-size, 10000). */
  bufferSize: number;
  metrics?: AuditMetrics;
  /** Where `-` writes (tests); default process.stdout. */
  stdout?: NodeJS.WritableStream;
}

export const LOG_PLUGIN = 'log';

/** Upstream's ensureLogFile: the directory (0700) and the file (0600) exist and open, or start-up fails. */
export function ensureLogFile(path: string): void {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  } catch (e) {
    throw new Error(`failed to open log file ${path}: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export function logBackend(opts: LogBackendOptions): AuditBackend {
  const toStdout = opts.path === '-';
  if (!toStdout) ensureLogFile(opts.path);
  const file = toStdout ? undefined : new RotatingFile(opts);
  const out = opts.stdout ?? process.stdout;
  let queue: Buffer[] = [];
  let draining: Promise<void> | undefined;
  let reportedDrop = false;

  const writeBatch = (batch: Buffer[]): Promise<void> => {
    if (file) return file.write(batch);
    return new Promise((resolve) => {
      // stdout's own buffer absorbs the write; waiting for its callback keeps the queue bounded.
      out.write(Buffer.concat(batch), () => resolve());
    });
  };
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await writeBatch(batch);
      } catch (e) {
        // Upstream's HandlePluginError: logged and counted, the server carries on.
        opts.metrics?.error(LOG_PLUGIN, batch.length);
        console.error(`Error in audit plugin '${LOG_PLUGIN}' affecting ${batch.length} audit events: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    draining = undefined;
  };

  return {
    process(ev: AuditEvent, json: () => string) {
      if (queue.length >= opts.bufferSize) {
        opts.metrics?.error(LOG_PLUGIN, 1);
        if (!reportedDrop) console.error(`Error in audit plugin '${LOG_PLUGIN}' affecting 1 audit events: audit buffer queue blocked`);
        reportedDrop = true;
        return;
      }
      reportedDrop = false;
      queue.push(Buffer.from(`${opts.format === 'legacy' ? eventLegacyLine(ev) : json()}\n`));
      draining ??= drain();
    },
    async shutdown() {
      while (draining) await draining;
      await file?.close();
    },
  };
}
