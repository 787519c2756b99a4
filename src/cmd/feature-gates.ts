/**
 * `--feature-gates=Key=bool,...` as upstream's component-base parses it: the gates of the API
 * this server describes, each a Go boolean; an unknown gate or a bad value is an error.
 */
import { parseBoolError, parseGoBool } from '../machinery/go-bool.js';

/** The gates of the spec's API, with their defaults. */
export const FEATURE_GATE_DEFAULTS: Readonly<Record<string, boolean>> = {
  APIListChunking: true,
  APIPriorityAndFairness: true,
  APIResponseCompression: true,
  DryRun: true,
  EfficientWatchResumption: true,
  RemainingItemCount: true,
  ServerSideApply: true,
  WarningHeaders: true,
  WatchBookmark: true,
};

/** The gates a flag value sets (merged over previous, as repeated flags accumulate). */
export function parseFeatureGates(
  value: string,
  previous: Record<string, boolean> = {},
  known: Readonly<Record<string, boolean>> = FEATURE_GATE_DEFAULTS,
): Record<string, boolean> {
  const out = { ...previous };
  for (const part of value.split(',')) {
    const s = part.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${s}`);
    const key = s.slice(0, eq).trim();
    const raw = s.slice(eq + 1).trim();
    const v = parseGoBool(raw);
    if (v === undefined) throw new Error(`invalid value of ${key}=${raw}, err: ${parseBoolError(raw)}`);
    if (!Object.hasOwn(known, key)) throw new Error(`unrecognized feature gate: ${key}`);
    out[key] = v;
  }
  return out;
}
