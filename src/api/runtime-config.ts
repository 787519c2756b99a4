/**
 * `--runtime-config`: which group versions (and resources) are served, as upstream's
 * resourceconfig.MergeAPIResourceConfigs. Keys are `api/all`, `api/ga`, `api/beta`, `api/alpha`
 * (values exactly `true` or `false`), `<group>/<version>` and `<group>/<version>/<resource>`
 * (Go booleans; a bare key means true). Alpha versions are off by default, the rest on. The
 * matchers apply first, in that order; then group versions; then single resources. The core
 * group (`/api/v1`) always stays on.
 */
import type { Brand } from '../machinery/brand.js';
import type { ResourceDefinition } from './types.js';

/** The parsed flag: key -> value ('' for a bare key), later pairs winning as cliflag.ConfigurationMap. */
export type RuntimeConfig = ReadonlyMap<string, string>;

/** Upstream's ConfigurationMap.Set: comma-separated `key[=value]`, both trimmed; adds to `into`. */
export function parseRuntimeConfig(value: string, into: Map<string, string> = new Map()): Map<string, string> {
  for (const pair of value.split(',')) {
    if (pair.length === 0) continue;
    const eq = pair.indexOf('=');
    if (eq < 0) into.set(pair.trim(), '');
    else into.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  return into;
}

type Level = 'ga' | 'beta' | 'alpha';

function levelOf(version: string): Level {
  if (/^v\d+alpha\d+$/.test(version)) return 'alpha';
  if (/^v\d+beta\d+$/.test(version)) return 'beta';
  return 'ga';
}

const MATCHERS: ReadonlyArray<readonly [string, (l: Level) => boolean]> = [
  ['api/all', () => true],
  ['api/ga', (l) => l === 'ga'],
  ['api/beta', (l) => l === 'beta'],
  ['api/alpha', (l) => l === 'alpha'],
];
const MATCHER_KEYS: ReadonlySet<string> = new Set(MATCHERS.map(([k]) => k));
/** Keys naming the legacy core group, which upstream's named-group registry does not know and skips. */
const LEGACY_KEYS: ReadonlySet<string> = new Set(['api/v1', 'api/legacy']);

/** Go's strconv.ParseBool. */
function parseGoBool(key: string, value: string): boolean {
  if (value === '') return true;
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  throw new Error(`invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

function groupVersion(def: ResourceDefinition, brand: Brand): string {
  const group = brand.group(def.groupStem, def.branded);
  return group === '' ? def.version : `${group}/${def.version}`;
}

/**
 * The definitions served under a runtime config; throws upstream's error for a bad value, and
 * (stricter than upstream, which skips groups it does not serve) for a group version or resource
 * this server does not have, so a typo cannot silently leave an API on or off.
 */
export function servedDefinitions(defs: readonly ResourceDefinition[], config: RuntimeConfig, brand: Brand): ResourceDefinition[] {
  const known = new Map<string, ResourceDefinition[]>();
  // The core group is not switchable: the server's own bootstrap (namespaces, services) needs it.
  for (const d of defs.filter((def) => def.groupStem !== '')) {
    const gv = groupVersion(d, brand);
    known.set(gv, [...(known.get(gv) ?? []), d]);
  }
  const enabledVersions = new Map<string, boolean>();
  for (const gv of known.keys()) enabledVersions.set(gv, levelOf(gv.slice(gv.lastIndexOf('/') + 1)) !== 'alpha');
  for (const [key, matches] of MATCHERS) {
    const value = config.get(key);
    if (value === undefined) continue;
    if (value !== 'true' && value !== 'false') throw new Error(`invalid value ${key}=${value}`);
    for (const gv of known.keys()) if (matches(levelOf(gv.slice(gv.lastIndexOf('/') + 1)))) enabledVersions.set(gv, value === 'true');
  }
  const resources = new Map<string, boolean>();
  for (const [key, value] of config) {
    if (MATCHER_KEYS.has(key) || LEGACY_KEYS.has(key)) continue;
    const tokens = key.split('/');
    if (tokens.length < 2 || tokens.length > 3) throw new Error(`invalid key ${key}`);
    const gv = `${tokens[0]}/${tokens[1]}`;
    const served = known.get(gv);
    if (served === undefined) throw new Error(`group version ${gv} that has not been registered`);
    const enabled = parseGoBool(key, value);
    if (tokens.length === 2) {
      enabledVersions.set(gv, enabled);
      continue;
    }
    const resource = tokens[2];
    if (resource.toLowerCase() !== resource) {
      throw new Error(`invalid key ${key}: group/version/resource and resource is always lowercase plural, not ${JSON.stringify(resource)}`);
    }
    if (!served.some((d) => d.plural === resource)) throw new Error(`resource ${key} that has not been registered`);
    resources.set(key, enabled);
  }
  // A resource named on its own wins over its version's setting.
  return defs.filter((d) => {
    if (d.groupStem === '') return true;
    const gv = groupVersion(d, brand);
    return resources.get(`${gv}/${d.plural}`) ?? enabledVersions.get(gv) ?? true;
  });
}
