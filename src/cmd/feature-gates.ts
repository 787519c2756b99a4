/**
 * `--feature-gates=Key=bool,...` as upstream's component-base parses it (machinery/feature-gate.ts):
 * the API server's gates with their levels, or a component's own table of defaults.
 */
import { type FeatureSpec, type FeatureSpecs, parseFeatureGateFlag } from '../machinery/feature-gate.js';
import { klog } from '../machinery/klog.js';
import { API_SERVER_FEATURES } from '../server/feature-gates.js';

function specsOf(known: FeatureSpecs | Readonly<Record<string, boolean>>): FeatureSpecs {
  if (known instanceof Map) return known;
  return new Map(Object.entries(known).map(([k, v]): [string, FeatureSpec] => [k, { default: v, preRelease: v ? 'BETA' : 'ALPHA' }]));
}

/** The gates a flag value sets (merged over previous, as repeated flags accumulate); GA and deprecated gates warn as upstream. */
export function parseFeatureGates(
  value: string,
  previous: Record<string, boolean> = {},
  known: FeatureSpecs | Readonly<Record<string, boolean>> = API_SERVER_FEATURES,
): Record<string, boolean> {
  const set = parseFeatureGateFlag(value, new Map(Object.entries(previous)), specsOf(known), (text) => klog.warning(text));
  // Only known gate names reach the record: none is an Object.prototype key.
  const out: Record<string, boolean> = {};
  for (const [k, v] of set) out[k] = v;
  return out;
}
