/**
 * `--feature-gates=Key=bool,...` as upstream's component-base parses it: the gates of the API
 * this server describes, each a Go boolean; an unknown gate or a bad value is an error.
 */

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

const GO_BOOLS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** The gates a flag value sets (merged over previous, as repeated flags accumulate). */
export function parseFeatureGates(value: string, previous: Record<string, boolean> = {}): Record<string, boolean> {
  const out = { ...previous };
  for (const part of value.split(',')) {
    const s = part.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${s}`);
    const key = s.slice(0, eq).trim();
    const raw = s.slice(eq + 1).trim();
    const v = GO_BOOLS[raw];
    if (v === undefined) throw new Error(`invalid value of ${key}=${raw}, err: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`);
    if (!(key in FEATURE_GATE_DEFAULTS)) throw new Error(`unrecognized feature gate: ${key}`);
    out[key] = v;
  }
  return out;
}
