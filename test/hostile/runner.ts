/**
 * Runs hostile cases against a server in a worker thread over a few keep-alive lanes while the
 * prober watches /healthz, and checks every case: no 5xx, the answer upstream would give, no
 * partial write (a refused or dry-run write leaves the object as it was; a refused create
 * leaves nothing), unknown fields never stored, user keys stored as given, no crash.
 */
import { connection, type Answer } from './client.js';
import { FAMILIES, pickFamily } from './families.js';
import { type Family, type HostileCase, meets } from './hostile-case.js';
import { Lane } from './lane.js';
import { Rng } from './prng.js';
import { now, type ProbeReport, startProber } from './prober.js';
import { type HostedServer, hostServer } from './server-host.js';
import { send } from './client.js';

export interface RunOptions {
  seed: number;
  /** How many cases (indices 0..count-1); with durationMs, the run also stops at the deadline. */
  count: number;
  durationMs?: number;
  lanes: number;
  /** Run only this case index (reproducing one failure). */
  only?: number;
  families?: readonly Family[];
  /** Per-request deadline of the runner's client. */
  timeoutMs?: number;
  /** After this many failures of one family+variant, its further cases are skipped (bounded run time while defects are open). */
  variantFailureCap?: number;
  /** Called with each variant's first failure as it happens (progress for long runs). */
  onFirstFailure?: (f: Failure) => void;
  /** Give up after this many server crashes. */
  maxCrashes?: number;
  /** /healthz must answer within this. */
  probeThresholdMs?: number;
  log?: (line: string) => void;
}

export interface Failure {
  index: number;
  family: string;
  owner: string;
  variant: string;
  /**
   * no-5xx, unexpected-status, partial-write, stored-unknown, lost-key, timeout, transport, crash;
   * `unresponsive` when the runner's own before/after requests got no answer (collateral).
   */
  kind: string;
  detail: string;
  /** The case, its body and path cut to their first 4 KiB. */
  c: HostileCase;
  /** The full body's size. */
  bodyBytes: number;
  answer?: Answer;
}

export interface CaseTiming {
  start: number;
  end: number;
  family: string;
  variant: string;
  index: number;
  /** The case waits by design (a watch, a future resourceVersion): long, but not working. */
  waits: boolean;
}

export interface RunReport {
  seed: number;
  ran: number;
  skipped: number;
  notRun: number;
  perFamily: Map<string, { ran: number; failed: number }>;
  failures: Failure[];
  crashes: string[];
  probe: ProbeReport;
  pollution: string[];
  /** Slow probes blamed on the longest case in flight at the time: variant -> count. */
  slowBlame: Map<string, { count: number; maxMs: number; example?: CaseTiming }>;
  durationMs: number;
}

/**
 * A case's answer may take up to the server's own request timeout (--request-timeout, 60 s):
 * heavy writes pause in turns, so with every lane sending one on a busy machine each takes
 * several times its CPU; an answer past this would be the server's 504, a 5xx the suite reports.
 */
const DEFAULT_TIMEOUT_MS = 60_000;

/** Reads the JSON at a key path; own properties only. */
function hasOwnPath(obj: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let cur: unknown = obj;
  for (const k of path) {
    if (typeof cur !== 'object' || cur === null || !Object.hasOwn(cur, k)) return { found: false };
    cur = (cur as Record<string, unknown>)[k];
  }
  return { found: true, value: cur };
}

/** The first value of a query parameter in a path, as the server reads it. */
function firstParam(path: string, name: string): string | undefined {
  const q = path.indexOf('?');
  if (q < 0) return undefined;
  try {
    return new URLSearchParams(path.slice(q + 1)).get(name) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Runs the cases and returns what failed; never throws for a server defect. */
export async function runHostile(opts: RunOptions): Promise<RunReport> {
  const log = opts.log ?? (() => {});
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const families = opts.families ?? FAMILIES;
  const cap = opts.variantFailureCap ?? 3;
  const maxCrashes = opts.maxCrashes ?? 8;
  const started = now();
  const deadline = opts.durationMs ? started + opts.durationMs : Number.POSITIVE_INFINITY;

  let hosted: HostedServer = await hostServer();
  const prober = startProber(hosted.server, opts.probeThresholdMs ?? 200);
  const lanes = Array.from({ length: opts.only !== undefined ? 1 : opts.lanes }, (_, i) => new Lane(i, hosted.server, connection(hosted.server), timeoutMs));
  for (const lane of lanes) await lane.setup();

  const failures: Failure[] = [];
  const failuresByVariant = new Map<string, number>();
  const perFamily = new Map<string, { ran: number; failed: number }>();
  const crashes: string[] = [];
  const timings: CaseTiming[] = [];
  let ran = 0;
  let skipped = 0;
  let stop = false;
  let restarting: Promise<void> | undefined;
  const pollution = new Set<string>();

  const inFlight = new Set<{ index: number; c: HostileCase; start: number }>();
  /** The cases in flight when each server died (recorded once, by whoever noticed first). */
  const crashSuspects = new WeakMap<HostedServer, string>();
  void hostedDeathWatch();
  function hostedDeathWatch(): void {
    const h = hosted;
    void h.died.then(() => {
      if (!h.death) return;
      crashSuspects.set(h, [...inFlight].map((f) => `case ${f.index} (${f.c.family}: ${f.c.variant})`).join(', '));
      // Quarantine every variant in flight: a crash is expensive, one per variant is enough.
      for (const f of inFlight) failuresByVariant.set(`${f.c.family}\u0000${f.c.variant}`, cap);
    });
  }

  const fail = (index: number, family: Family, c: HostileCase, kind: string, detail: string, answer?: Answer) => {
    const key = `${c.family}\u0000${c.variant}`;
    // Collateral failures (the server was busy with another case) do not count against the variant.
    if (kind !== 'unresponsive') failuresByVariant.set(key, (failuresByVariant.get(key) ?? 0) + 1);
    const stats = perFamily.get(family.name);
    if (stats) stats.failed++;
    // Keep the first few of each variant for the report; counts are kept for all.
    // Keep only the start of a body and answer: a long run may keep thousands of failures.
    const bodyBytes = c.body === undefined ? 0 : Buffer.byteLength(c.body);
    const kept: HostileCase = { ...c, body: c.body === undefined ? undefined : c.body.slice(0, 4096), path: c.path.slice(0, 4096) };
    const keptAnswer = answer && { ...answer, text: answer.text.slice(0, 2048) };
    const f: Failure = { index, family: c.family, owner: family.owner, variant: c.variant, kind, detail, c: kept, bodyBytes, answer: keptAnswer };
    const n = failuresByVariant.get(key) ?? 0;
    const first = kind === 'crash' || (n === 1 && kind !== 'unresponsive');
    if ((n <= 3 || kind === 'crash') && failures.length < 5000) failures.push(f);
    if (first) opts.onFirstFailure?.(f);
  };

  /** Restarts a dead server on a fresh data dir, once, whoever notices first. */
  const restart = (): Promise<void> => {
    restarting ??= (async () => {
      const why = hosted.death ?? 'unknown';
      crashes.push(why);
      log(`server died (${why}); ${crashes.length >= maxCrashes ? 'giving up' : 'restarting'}`);
      prober.target(undefined);
      for (const p of await Promise.resolve(hosted.pollution())) pollution.add(p);
      await hosted.stop();
      if (crashes.length >= maxCrashes) {
        stop = true;
        return;
      }
      hosted = await hostServer();
      hostedDeathWatch();
      prober.target(hosted.server);
      for (const lane of lanes) {
        lane.agent.destroy();
        lane.server = hosted.server;
        lane.agent = connection(hosted.server);
        await lane.setup();
      }
    })().finally(() => {
      restarting = undefined;
    });
    return restarting;
  };

  const runCase = async (lane: Lane, index: number) => {
    const rng = new Rng(opts.seed, index);
    await lane.checkNsObj();
    const family = pickFamily(rng, families);
    const c = family.generate(rng, lane.ctx);
    if ((failuresByVariant.get(`${c.family}\u0000${c.variant}`) ?? 0) >= cap) {
      skipped++;
      return;
    }
    const stats = perFamily.get(family.name) ?? { ran: 0, failed: 0 };
    perFamily.set(family.name, stats);
    stats.ran++;
    ran++;
    // Before: the object the case may change, the names a deletecollection may remove.
    let before: { text: string; status: number } | undefined;
    if (c.target) {
      const known = lane.known.get(c.target);
      before = known !== undefined && known.length < 64 * 1024 ? { text: known, status: 200 } : await lane.ensure(c.target);
      // Usually the server is still busy with another lane's case (see the slow /healthz blame).
      if (!before) return fail(index, family, c, 'unresponsive', `could not prepare ${c.target} before the case`);
    }
    const namesBefore = c.collection ? await lane.names(c.collection) : undefined;
    const start = now();
    const flight = { index, c, start };
    inFlight.add(flight);
    const answer = await send(lane.server, c.watch ? false : lane.agent, c.method, c.path, { headers: c.headers, body: c.body, timeoutMs, watch: c.watch });
    // A case whose connection failed stays in flight until it is known whether the server died.
    if (answer.status > 0) inFlight.delete(flight);
    timings.push({ start, end: now(), family: c.family, variant: c.variant, index, waits: c.allow504 === true || c.watch === true });
    if (c.target === lane.ctx.nsObj || c.path.startsWith(lane.ctx.nsObj)) lane.nsObjDirty = true;

    if (answer.status <= 0) {
      lane.known.clear();
      if (answer.status < 0) return fail(index, family, c, 'generator', answer.error ?? '');
      // Did the server die, or only drop this connection?
      const died = await Promise.race([hosted.died, new Promise<undefined>((r) => setTimeout(() => r(undefined), 1000))]);
      inFlight.delete(flight);
      if (died !== undefined && hosted.death) {
        // Every case in flight loses its answer; only one of them killed the server. Each is
        // reported with the others, so the culprit can be replayed alone (--only).
        fail(index, family, c, 'crash', `${hosted.death}; in flight then: ${crashSuspects.get(hosted) ?? ''}`, answer);
        await restart();
        return;
      }
      return fail(index, family, c, answer.error === 'timeout' ? 'timeout' : 'transport', `no HTTP answer: ${answer.error}`, answer);
    }
    const is504ok = answer.status === 504 && c.allow504;
    if (answer.status >= 500 && !is504ok) fail(index, family, c, 'no-5xx', `${answer.status}`, answer);
    else if (!is504ok && !meets(c.expect, answer.status))
      fail(index, family, c, 'unexpected-status', `expected ${Array.isArray(c.expect) ? c.expect.join('|') : c.expect}, got ${answer.status}`, answer);

    const refused = answer.status >= 300;
    // What the lane knows of its objects stays true only while nothing was written.
    if (!refused && c.method !== 'GET' && c.method !== 'HEAD') lane.known.clear();
    const dryRun = firstParam(c.path, 'dryRun') === 'All' && c.method !== 'GET';
    if (refused || dryRun) {
      const why = refused ? `refused (${answer.status})` : 'dry run';
      if (c.target && before) {
        const after = await lane.call('GET', c.target);
        if (after.status === 0) return fail(index, family, c, 'unresponsive', `checking ${c.target} afterwards: ${after.error}`, answer);
        if (after.status !== before.status || (after.status === 200 && after.text !== before.text)) {
          lane.known.clear();
          fail(
            index,
            family,
            c,
            'partial-write',
            `${why} but ${c.target} changed: before ${before.text.slice(0, 150)} after ${after.status} ${after.text.slice(0, 150)}`,
            answer,
          );
        } else if (after.status === 200) lane.known.set(c.target, after.text);
      }
      if (c.creates) {
        const after = await lane.call('GET', c.creates);
        if (after.status === 0) return fail(index, family, c, 'unresponsive', `checking ${c.creates} afterwards: ${after.error}`, answer);
        if (after.status !== 404)
          fail(index, family, c, 'partial-write', `${why} but ${c.creates} exists: ${after.status} ${after.text.slice(0, 200)}`, answer);
      }
      if (c.collection && namesBefore !== undefined) {
        const after = await lane.names(c.collection);
        if (after === undefined) return fail(index, family, c, 'unresponsive', `listing ${c.collection} afterwards failed`, answer);
        if (after !== namesBefore) fail(index, family, c, 'partial-write', `${why} but ${c.collection} changed: ${namesBefore} -> ${after}`, answer);
      }
    } else if (answer.status < 300) {
      const written = c.creates ?? c.target;
      if (written && (c.neverStored?.length || c.presentAfter)) {
        const got = await lane.call('GET', written);
        const obj = got.status === 200 ? JSON.parse(got.text) : undefined;
        for (const path of c.neverStored ?? []) {
          if (obj && hasOwnPath(obj, path).found) fail(index, family, c, 'stored-unknown', `${path.join('.')} was stored: ${got.text.slice(0, 200)}`, answer);
        }
        if (c.presentAfter && obj && answer.status !== 202) {
          const v = hasOwnPath(obj, c.presentAfter.at);
          if (!v.found || JSON.stringify(v.value) !== JSON.stringify(c.presentAfter.value)) {
            fail(
              index,
              family,
              c,
              'lost-key',
              `${c.presentAfter.at.join('.')} should be ${JSON.stringify(c.presentAfter.value)}: ${got.text.slice(0, 200)}`,
              answer,
            );
          }
        }
      }
      if (c.creates) await lane.remove(c.creates);
    }
  };

  const laneLoop = async (lane: Lane) => {
    const indices = opts.only !== undefined ? [opts.only] : undefined;
    for (let i = indices ? indices[0] : lane.index; indices ? i === indices[0] : i < opts.count; i += indices ? 1 : lanes.length) {
      if (stop || now() > deadline) return;
      if (restarting) await restarting;
      if (stop) return;
      try {
        await runCase(lane, i);
      } catch (err) {
        // A runner bug (bad JSON from a fixture GET...): report it against the case, go on.
        const rng = new Rng(opts.seed, i);
        const family = pickFamily(rng, families);
        fail(i, family, family.generate(rng, lane.ctx), 'runner', String((err as Error)?.stack ?? err));
      }
      if (indices) return;
    }
  };

  const progress = setInterval(() => log(`${ran} cases run, ${skipped} skipped, ${failures.length} failures kept`), 15_000).unref();
  await Promise.all(lanes.map(laneLoop));
  clearInterval(progress);

  const probe = await prober.report();
  await prober.stop();
  for (const p of await hosted.pollution()) pollution.add(p);
  for (const lane of lanes) lane.agent.destroy();
  await hosted.stop();

  // Blame each slow probe on the longest case in flight during it.
  const slowBlame = new Map<string, { count: number; maxMs: number; example?: CaseTiming }>();
  for (const s of probe.slow) {
    let worst: CaseTiming | undefined;
    for (const t of timings) {
      if (t.start > s.start + s.wallMs || t.end < s.start) continue;
      // Prefer a case that works over one that only waits (a watch, a future resourceVersion).
      if (!worst || (worst.waits && !t.waits) || (worst.waits === t.waits && t.end - t.start > worst.end - worst.start)) worst = t;
    }
    const key = worst ? `${worst.family}: ${worst.variant}` : '(no case in flight)';
    const entry = slowBlame.get(key) ?? { count: 0, maxMs: 0, example: worst };
    entry.count++;
    entry.maxMs = Math.max(entry.maxMs, s.ms);
    slowBlame.set(key, entry);
  }
  const total = opts.only !== undefined ? 1 : opts.count;
  return {
    seed: opts.seed,
    ran,
    skipped,
    notRun: Math.max(0, total - ran - skipped),
    perFamily,
    failures,
    crashes,
    probe,
    pollution: [...pollution],
    slowBlame,
    durationMs: now() - started,
  };
}
