/**
 * Feature gates as component-base's featuregate: each gate has a maturity level and a
 * default; `--feature-gates=Key=bool,...` sets them. An unknown gate is an error, a gate locked
 * to its default (GA past its switch-off window) refuses the other value, and setting a GA or
 * deprecated gate warns that it will be removed. --help lists each gate with level and default.
 */
import { parseBoolError, parseGoBool } from './go-bool.js';

/** featuregate.prerelease: GA prints as an empty level upstream; here it is named. */
export type PreRelease = 'ALPHA' | 'BETA' | 'GA' | 'DEPRECATED';

export interface FeatureSpec {
  default: boolean;
  preRelease: PreRelease;
  /** GA gates whose off switch is gone: setting the non-default is a start-up error. */
  lockToDefault?: boolean;
}

/** The gates as their spec lists them. */
export type FeatureSpecs = ReadonlyMap<string, FeatureSpec>;

/** An immutable view of which features are on. */
export interface FeatureGate {
  enabled(name: string): boolean;
}

/**
 * Parses one `--feature-gates` value over the gates set so far (repeated flags accumulate).
 * `warn` receives upstream's warning for a GA or deprecated gate being set.
 */
export function parseFeatureGateFlag(
  value: string,
  previous: ReadonlyMap<string, boolean>,
  known: FeatureSpecs,
  warn: (text: string) => void = () => {},
): Map<string, boolean> {
  const out = new Map(previous);
  for (const part of value.split(',')) {
    const s = part.trim();
    if (s === '') continue;
    const eq = s.indexOf('=');
    if (eq < 0) throw new Error(`missing bool value for ${s}`);
    const key = s.slice(0, eq).trim();
    const raw = s.slice(eq + 1).trim();
    const v = parseGoBool(raw);
    if (v === undefined) throw new Error(`invalid value of ${key}=${raw}, err: ${parseBoolError(raw)}`);
    const spec = known.get(key);
    if (spec === undefined) throw new Error(`unrecognized feature gate: ${key}`);
    if (spec.lockToDefault && spec.default !== v) throw new Error(`cannot set feature gate ${key} to ${v}, feature is locked to ${spec.default}`);
    out.set(key, v);
    if (spec.preRelease === 'DEPRECATED') warn(`Setting deprecated feature gate ${key}=${v}. It will be removed in a future release.`);
    else if (spec.preRelease === 'GA') warn(`Setting GA feature gate ${key}=${v}. It will be removed in a future release.`);
  }
  return out;
}

/** The gates' state: each set one as set, the rest at their defaults. */
export function featureGate(known: FeatureSpecs, set: ReadonlyMap<string, boolean> = new Map()): FeatureGate {
  const state = new Map<string, boolean>();
  for (const [name, spec] of known) state.set(name, set.get(name) ?? spec.default);
  return {
    enabled(name) {
      const v = state.get(name);
      if (v === undefined) throw new Error(`feature ${JSON.stringify(name)} is not registered in FeatureGate`);
      return v;
    },
  };
}

/** featuregate.KnownFeatures' lines for --help (`Name=true|false (BETA - default=true)`), sorted. */
export function knownFeatures(known: FeatureSpecs): string[] {
  return [...known].map(([name, spec]) => `${name}=true|false (${spec.preRelease} - default=${spec.default})`).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
