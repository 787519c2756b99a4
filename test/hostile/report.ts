/** Formats a run's report: per-family counts, each failing variant with one reproducible case, the prober's figures. */
import type { HostileCase } from './hostile-case.js';
import type { Failure, RunReport } from './runner.js';

/** A short, printable excerpt of a body (escaped text, or hex when it is binary). */
export function excerpt(body: string | Buffer | undefined, max = 160, fullBytes?: number): string {
  if (body === undefined) return '(no body)';
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const text = bytes.toString('utf8');
  const binary = Buffer.isBuffer(body) && (text.includes('\uFFFD') || /[\u0000-\u0008\u000e-\u001f]/.test(text));
  const shown = binary ? `hex ${bytes.subarray(0, max / 2).toString('hex')}` : JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return `(${fullBytes ?? bytes.length} bytes) ${shown}`;
}

/** One case as a line a person can replay. */
export function describeCase(seed: number, index: number, c: HostileCase, bodyBytes?: number): string {
  const type = c.headers?.['content-type'] ?? '';
  const accept = c.headers?.accept ? ` accept: ${c.headers.accept}` : '';
  const path = c.path.length > 200 ? `${c.path.slice(0, 200)}… (${c.path.length} chars)` : c.path;
  return `seed=${seed} case=${index}: ${c.method} ${path}${type ? ` content-type: ${type}` : ''}${accept} body ${excerpt(c.body, 160, bodyBytes)}`;
}

/** One failure: what broke, the case, and what came back. */
export function describeFailure(seed: number, f: Failure): string {
  const got = f.answer
    ? f.answer.status > 0
      ? `${f.answer.status} ${f.answer.text.slice(0, 240).replaceAll('\n', ' ')}`
      : `no answer (${f.answer.error})`
    : '';
  return `  [${f.kind}] ${f.variant}: ${f.detail.slice(0, 400)}\n    repro ${describeCase(seed, f.index, f.c, f.bodyBytes)}\n    answer ${got}`;
}

/** The whole report, failures grouped by family (owner area) then variant. */
export function formatReport(r: RunReport): string {
  const lines: string[] = [];
  lines.push(
    `hostile-input run: seed=${r.seed} ran=${r.ran} skipped=${r.skipped} (variants already failing) notRun=${r.notRun} in ${(r.durationMs / 1000).toFixed(1)} s`,
  );
  lines.push(
    `/healthz prober: ${r.probe.count} probes, loop held at most ${r.probe.maxMs.toFixed(0)} ms (longest wait ${r.probe.maxWallMs.toFixed(0)} ms), p99 ${r.probe.p99Ms.toFixed(0)} ms, ${r.probe.slow.length} over the threshold or failed`,
  );
  for (const [family, s] of [...r.perFamily].sort()) lines.push(`  ${family}: ${s.ran} cases, ${s.failed} failures`);
  if (r.crashes.length) lines.push(`server crashes: ${r.crashes.join('; ')}`);
  if (r.pollution.length) lines.push(`prototype pollution in the server: ${r.pollution.join(', ')}`);
  const byFamily = new Map<string, Failure[]>();
  for (const f of r.failures) byFamily.set(f.family, [...(byFamily.get(f.family) ?? []), f]);
  for (const [family, fs] of byFamily) {
    lines.push(`FAILING ${family} (${fs[0].owner}):`);
    const seen = new Set<string>();
    for (const f of fs) {
      const key = `${f.kind}\u0000${f.variant}`;
      if (seen.has(key)) continue;
      seen.add(key);
      lines.push(describeFailure(r.seed, f));
    }
  }
  for (const s of r.probe.slow) {
    lines.push(
      `  slow probe at ${new Date(s.start).toISOString()} (${s.start.toFixed(0)}): held ${s.ms.toFixed(0)} ms, waited ${s.wallMs.toFixed(0)} ms${s.error ? `, ${s.error}` : ''}`,
    );
  }
  if (r.slowBlame.size) {
    lines.push('slow /healthz, blamed on the longest case in flight:');
    for (const [variant, b] of [...r.slowBlame].sort((a, b) => b[1].maxMs - a[1].maxMs).slice(0, 25)) {
      lines.push(
        `  ${b.count}x up to ${b.maxMs.toFixed(0)} ms during ${variant}${b.example ? ` (seed=${r.seed} case=${b.example.index}, took ${(b.example.end - b.example.start).toFixed(0)} ms)` : ''}`,
      );
    }
  }
  return lines.join('\n');
}
