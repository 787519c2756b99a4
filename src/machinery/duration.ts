/** Go duration strings (`1h`, `5m30s`, `250ms`, `0`) as upstream flags accept them. */

const UNITS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go duration; throws on malformed input. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let pos = 0;
  let sign = 1;
  let body = s;
  if (body.startsWith('-') || body.startsWith('+')) {
    sign = body.startsWith('-') ? -1 : 1;
    body = body.slice(1);
  }
  if (body === '') throw new Error(`time: invalid duration "${text}"`);
  re.lastIndex = 0;
  while (pos < body.length) {
    re.lastIndex = pos;
    const m = re.exec(body);
    if (!m) throw new Error(`time: invalid duration "${text}"`);
    total += Number(m[1]) * UNITS[m[2]];
    pos = re.lastIndex;
  }
  return sign * total;
}
