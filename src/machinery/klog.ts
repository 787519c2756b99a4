/**
 * The process logger, klog's behaviour for the logging flags of Kubernetes components:
 * severities I/W/E/F, verbosity (`-v`, `--vmodule`), text lines in klog's header format
 * (`I1125 16:00:00.000000   12345 file.ts:42] msg key="value"`) or, with
 * `--logging-format=json`, one JSON object per line (`ts` in epoch milliseconds, `caller`, `msg`,
 * `v`, then the key/values) on standard output, as component-base's 1.21 JSON logger writes.
 * Destinations follow klog: standard error by default (`--logtostderr`); otherwise files
 * (`--log-file`, or per-severity files in `--log-dir` where a severity's file also holds every
 * higher one unless `--one-output`), plus standard error for `--alsologtostderr` and at or above
 * `--stderrthreshold`. A file past `--log-file-max-size` MB is started over (a `--log-file`) or
 * replaced by a new one (`--log-dir`), as klog rotates. Lines are written synchronously, so
 * nothing waits for `--log-flush-frequency`.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OWN_FILE = fileURLToPath(import.meta.url);

export type Severity = 'I' | 'W' | 'E' | 'F';
const SEVERITY_RANK: Record<Severity, number> = { I: 0, W: 1, E: 2, F: 3 };
const SEVERITY_NAME = ['INFO', 'WARNING', 'ERROR', 'FATAL'] as const;

export interface LoggingOptions {
  v: number;
  /** `pattern=N` pairs; patterns match the source file name without extension (`*` and `?` globs). */
  vmodule: string[];
  logtostderr: boolean;
  alsologtostderr: boolean;
  /** Severity rank (0 INFO .. 3 FATAL) at or above which lines also go to standard error. */
  stderrthreshold: number;
  logDir: string;
  logFile: string;
  /** Megabytes; 0 means unlimited. */
  logFileMaxSize: number;
  addDirHeader: boolean;
  oneOutput: boolean;
  skipHeaders: boolean;
  skipLogHeaders: boolean;
  /** `file:N`: a stack trace is added to lines logged from there. */
  logBacktraceAt: string;
  format: 'text' | 'json';
  /** Redact lines whose arguments carry fields tagged as sensitive. */
  sanitization: boolean;
  /** Program name used in --log-dir file names. */
  program: string;
}

export const DEFAULT_LOGGING: LoggingOptions = {
  v: 0,
  vmodule: [],
  logtostderr: true,
  alsologtostderr: false,
  stderrthreshold: 2,
  logDir: '',
  logFile: '',
  logFileMaxSize: 1800,
  addDirHeader: false,
  oneOutput: false,
  skipHeaders: false,
  skipLogHeaders: false,
  logBacktraceAt: '',
  format: 'text',
  sanitization: false,
  program: 'orch',
};

/** Upstream's --logging-format values. */
export const LOGGING_FORMATS = ['text', 'json'] as const;

type KeyValues = Record<string, unknown>;

interface OpenFile {
  fd: number;
  bytes: number;
}

// Field names upstream tags `datapolicy:"password|token|security-key"`; their values never reach a log.
const SENSITIVE = new Set(['password', 'token', 'bearerToken', 'secret', 'privateKey', 'keyData', 'certData', 'client-key-data']);

class Logger {
  private opts: LoggingOptions = { ...DEFAULT_LOGGING };
  private vmodule: { re: RegExp; level: number }[] = [];
  private files = new Map<string, OpenFile>();
  private readonly pid = process.pid;
  /** Where lines for standard error go (replaceable for tests). */
  stderr: (line: string) => void = (line) => process.stderr.write(line);
  stdout: (line: string) => void = (line) => process.stdout.write(line);

  configure(opts: Partial<LoggingOptions>): void {
    this.close();
    this.opts = { ...DEFAULT_LOGGING, ...opts };
    this.vmodule = this.opts.vmodule.map((pair) => {
      const eq = pair.lastIndexOf('=');
      const pattern = pair.slice(0, eq);
      const glob = pattern
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.');
      return { re: new RegExp(`^${glob}$`), level: Number(pair.slice(eq + 1)) };
    });
  }

  get options(): Readonly<LoggingOptions> {
    return this.opts;
  }

  /** Whether a V(level) line from the caller would be written (checked before building it). */
  enabled(level: number, depth = 0): boolean {
    if (this.opts.v >= level) return true;
    if (this.vmodule.length === 0 || this.opts.format === 'json') return false;
    const file = callerOf(depth + 1).file;
    const name = basename(file).replace(/\.(ts|js)$/, '');
    const rule = this.vmodule.find((r) => r.re.test(name));
    return rule !== undefined && rule.level >= level;
  }

  info(msg: string, kv?: KeyValues): void {
    this.emit('I', 0, msg, kv, undefined);
  }

  /** A V(level) info line. */
  v(level: number, msg: string, kv?: KeyValues): void {
    if (!this.enabled(level, 1)) return;
    this.emit('I', level, msg, kv, undefined);
  }

  warning(msg: string, kv?: KeyValues): void {
    this.emit('W', 0, msg, kv, undefined);
  }

  error(err: unknown, msg: string, kv?: KeyValues): void {
    this.emit('E', 0, msg, kv, err);
  }

  /** klog.Fatal: the line, then exit 255. */
  fatal(msg: string, kv?: KeyValues): never {
    this.emit('F', 0, msg, kv, undefined);
    this.close();
    process.exit(255);
  }

  close(): void {
    for (const f of this.files.values()) closeSync(f.fd);
    this.files.clear();
  }

  private emit(sev: Severity, level: number, msg: string, kv: KeyValues | undefined, err: unknown): void {
    const caller = callerOf(2);
    const now = new Date();
    const redacted = this.opts.sanitization ? redaction(kv) : undefined;
    const line =
      this.opts.format === 'json'
        ? jsonLine(now, caller, level, redacted ?? msg, redacted ? undefined : kv, err, sev)
        : this.textLine(sev, now, caller, redacted ?? msg, redacted ? undefined : kv, err);
    if (this.opts.format === 'json') {
      // Non-text formats ignore the destination flags: every line goes to standard output.
      this.stdout(line);
      return;
    }
    this.write(sev, line);
  }

  private textLine(sev: Severity, now: Date, caller: Caller, msg: string, kv: KeyValues | undefined, err: unknown): string {
    const pairs = textPairs(kv, err);
    // Structured calls quote the message, as klog's InfoS does; plain ones print it as is.
    const body = pairs === '' ? msg : `${JSON.stringify(msg)}${pairs}`;
    let trace = '';
    if (this.opts.logBacktraceAt !== '' && this.opts.logBacktraceAt === `${basename(caller.file)}:${caller.line}`) {
      trace = `\n${(new Error().stack ?? '').split('\n').slice(3).join('\n')}\n`;
    }
    if (this.opts.skipHeaders) return `${body}${body.endsWith('\n') ? '' : '\n'}${trace}`;
    const p2 = (n: number) => String(n).padStart(2, '0');
    const micros = String(now.getMilliseconds() * 1000).padStart(6, '0');
    const file = this.opts.addDirHeader ? caller.file : basename(caller.file);
    const header = `${sev}${p2(now.getMonth() + 1)}${p2(now.getDate())} ${p2(now.getHours())}:${p2(now.getMinutes())}:${p2(now.getSeconds())}.${micros} ${String(this.pid).padStart(7, ' ')} ${file}:${caller.line}] `;
    return `${header}${body}${body.endsWith('\n') ? '' : '\n'}${trace}`;
  }

  private write(sev: Severity, line: string): void {
    const o = this.opts;
    const rank = SEVERITY_RANK[sev];
    if (o.logtostderr) {
      this.stderr(line);
      return;
    }
    if (o.alsologtostderr || rank >= o.stderrthreshold) this.stderr(line);
    if (o.logFile !== '') {
      this.append(o.logFile, o.logFile, line);
      return;
    }
    if (o.logDir === '') return;
    // A line goes to its severity's file and, unless --one-output, every lower severity's.
    const lowest = o.oneOutput ? rank : 0;
    for (let r = rank; r >= lowest; r--) this.append(SEVERITY_NAME[r], '', line);
  }

  private append(key: string, fixedPath: string, line: string): void {
    let f = this.files.get(key);
    const max = this.opts.logFileMaxSize * 1024 * 1024;
    if (f && max > 0 && f.bytes + Buffer.byteLength(line) >= max) {
      closeSync(f.fd);
      this.files.delete(key);
      f = undefined;
      // A --log-file is started over; --log-dir gets a new file (new time in its name).
      if (fixedPath !== '') f = this.open(key, fixedPath, 'w');
    }
    f ??= this.open(key, fixedPath || this.dirFile(key), fixedPath ? 'a' : 'w');
    f.bytes += writeSync(f.fd, line);
  }

  private open(key: string, path: string, flags: 'a' | 'w'): OpenFile {
    const fd = openSync(path, flags, 0o644);
    const f = { fd, bytes: 0 };
    if (!this.opts.skipLogHeaders) {
      const now = new Date();
      const stamp = `${now.getFullYear()}/${pad(now.getMonth() + 1)}/${pad(now.getDate())} ${pad(now.getHours())}:${pad(now.getMinutes())}:${pad(now.getSeconds())}`;
      f.bytes += writeSync(
        fd,
        `Log file created at: ${stamp}\nRunning on machine: ${hostname()}\nBinary: Built with node ${process.version} for ${process.platform}/${process.arch}\nLog line format: [IWEF]mmdd hh:mm:ss.uuuuuu threadid file:line] msg\n`,
      );
    }
    this.files.set(key, f);
    return f;
  }

  // klog's logName: program.host.user.log.SEVERITY.yyyymmdd-hhmmss.pid
  private dirFile(severity: string): string {
    const now = new Date();
    const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
    let user = 'unknownuser';
    try {
      user = userInfo().username;
    } catch {
      // No passwd entry: klog uses the same placeholder.
    }
    return join(this.opts.logDir, `${this.opts.program}.${hostname()}.${user}.log.${severity}.${stamp}.${this.pid}`);
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

interface Caller {
  file: string;
  line: number;
}

// The source position `depth` frames above the logger's public method.
function callerOf(_depth: number): Caller {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  // The first frame outside this module is the caller of the logger's public method.
  const frame = frames.find((f) => !f.includes(OWN_FILE)) ?? '';
  const m = /\(?(?:file:\/\/)?([^()\s]+):(\d+):\d+\)?\s*$/.exec(frame);
  return m ? { file: m[1], line: Number(m[2]) } : { file: '???', line: 1 };
}

function textValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Error) return JSON.stringify(v.message);
  if (typeof v === 'number' || typeof v === 'boolean' || v === null || v === undefined) return String(v ?? '<nil>');
  return JSON.stringify(v);
}

function textPairs(kv: KeyValues | undefined, err: unknown): string {
  let out = '';
  if (err !== undefined) out += ` err=${textValue(err instanceof Error ? err.message : String(err))}`;
  for (const [k, v] of Object.entries(kv ?? {})) out += ` ${k}=${textValue(v)}`;
  return out;
}

function jsonLine(now: Date, caller: Caller, level: number, msg: string, kv: KeyValues | undefined, err: unknown, sev: Severity): string {
  const rec: Record<string, unknown> = { ts: now.getTime() + (performance.now() % 1) / 1000, caller: `${basename(caller.file)}:${caller.line}`, msg };
  if (sev === 'I') rec.v = level;
  if (err !== undefined) rec.err = err instanceof Error ? err.message : String(err);
  for (const [k, v] of Object.entries(kv ?? {})) if (!Object.hasOwn(rec, k)) rec[k] = v instanceof Error ? v.message : v;
  return `${JSON.stringify(rec)}\n`;
}

// Upstream's sanitization replaces the whole line when an argument holds a sensitive field.
function redaction(kv: KeyValues | undefined): string | undefined {
  let i = 0;
  for (const v of Object.values(kv ?? {})) {
    i++;
    if (v && typeof v === 'object') {
      const hits = Object.keys(v).filter((k) => SENSITIVE.has(k));
      if (hits.length > 0) return `Log message has been redacted. Log argument #${i} contains: [${hits.join(' ')}]`;
    }
  }
  return undefined;
}

/** The process's logger. */
export const klog = new Logger();
