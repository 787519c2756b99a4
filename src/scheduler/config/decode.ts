/**
 * Reading a KubeSchedulerConfiguration file as Kubernetes 1.21's scheduler does
 * (`loadConfigFromFile`): YAML converted to JSON (keys sorted, as sigs.k8s.io/yaml does), the
 * group/version/kind checked against the scheme, then a case-sensitive strict decode whose first
 * unknown field is an error in json-iterator's words, wrapped as apimachinery's
 * strictDecodingError (`strict decoder error for <file>: <type path>: found unknown field: x,
 * error found in #N byte of ...|...|..., bigger context ...|...|...`). Values of the wrong JSON
 * type are refused with encoding/json's message. Plugin args are free-form here; their kinds are
 * defaulted and validated later.
 */
import { decodeYaml, YamlDecodeError } from '../../codec/yaml-decode.js';
import { parseDuration } from '../../machinery/duration.js';
import { isPlainObject } from '../../machinery/object.js';
import type { KubeSchedulerConfiguration } from './types.js';

type Primitive = 'string' | 'bool' | 'int32' | 'float32' | 'Duration' | 'any';
interface StructSchema {
  go: string;
  fields: ReadonlyMap<string, Field>;
}
type FieldType = Primitive | StructSchema | { slice: StructSchema };
interface Field {
  goName: string;
  type: FieldType;
}

const struct = (go: string, fields: [json: string, goName: string, type: FieldType][]): StructSchema => ({
  go,
  fields: new Map(fields.map(([json, goName, type]) => [json, { goName, type }])),
});

const PLUGIN = struct('v1beta1.Plugin', [
  ['name', 'Name', 'string'],
  ['weight', 'Weight', 'int32'],
]);
const PLUGIN_SET = struct('v1beta1.PluginSet', [
  ['enabled', 'Enabled', { slice: PLUGIN }],
  ['disabled', 'Disabled', { slice: PLUGIN }],
]);
const PLUGINS = struct(
  'v1beta1.Plugins',
  (
    [
      ['queueSort', 'QueueSort'],
      ['preFilter', 'PreFilter'],
      ['filter', 'Filter'],
      ['postFilter', 'PostFilter'],
      ['preScore', 'PreScore'],
      ['score', 'Score'],
      ['reserve', 'Reserve'],
      ['permit', 'Permit'],
      ['preBind', 'PreBind'],
      ['bind', 'Bind'],
      ['postBind', 'PostBind'],
    ] as const
  ).map(([j, g]) => [j, g, PLUGIN_SET] as [string, string, FieldType]),
);
const PLUGIN_CONFIG = struct('v1beta1.PluginConfig', [
  ['name', 'Name', 'string'],
  ['args', 'Args', 'any'],
]);
const PROFILE = struct('v1beta1.KubeSchedulerProfile', [
  ['schedulerName', 'SchedulerName', 'string'],
  ['plugins', 'Plugins', PLUGINS],
  ['pluginConfig', 'PluginConfig', { slice: PLUGIN_CONFIG }],
]);
const TLS = struct('v1beta1.ExtenderTLSConfig', [
  ['insecure', 'Insecure', 'bool'],
  ['serverName', 'ServerName', 'string'],
  ['certFile', 'CertFile', 'string'],
  ['keyFile', 'KeyFile', 'string'],
  ['caFile', 'CAFile', 'string'],
  ['certData', 'CertData', 'string'],
  ['keyData', 'KeyData', 'string'],
  ['caData', 'CAData', 'string'],
]);
const MANAGED = struct('v1beta1.ExtenderManagedResource', [
  ['name', 'Name', 'string'],
  ['ignoredByScheduler', 'IgnoredByScheduler', 'bool'],
]);
const EXTENDER = struct('v1beta1.Extender', [
  ['urlPrefix', 'URLPrefix', 'string'],
  ['filterVerb', 'FilterVerb', 'string'],
  ['preemptVerb', 'PreemptVerb', 'string'],
  ['prioritizeVerb', 'PrioritizeVerb', 'string'],
  ['weight', 'Weight', 'int32'],
  ['bindVerb', 'BindVerb', 'string'],
  ['enableHTTPS', 'EnableHTTPS', 'bool'],
  ['tlsConfig', 'TLSConfig', TLS],
  ['httpTimeout', 'HTTPTimeout', 'Duration'],
  ['nodeCacheCapable', 'NodeCacheCapable', 'bool'],
  ['managedResources', 'ManagedResources', { slice: MANAGED }],
  ['ignorable', 'Ignorable', 'bool'],
]);
const LEADER_ELECTION = struct('v1alpha1.LeaderElectionConfiguration', [
  ['leaderElect', 'LeaderElect', 'bool'],
  ['leaseDuration', 'LeaseDuration', 'Duration'],
  ['renewDeadline', 'RenewDeadline', 'Duration'],
  ['retryPeriod', 'RetryPeriod', 'Duration'],
  ['resourceLock', 'ResourceLock', 'string'],
  ['resourceName', 'ResourceName', 'string'],
  ['resourceNamespace', 'ResourceNamespace', 'string'],
]);
const CLIENT_CONNECTION = struct('v1alpha1.ClientConnectionConfiguration', [
  ['kubeconfig', 'Kubeconfig', 'string'],
  ['acceptContentTypes', 'AcceptContentTypes', 'string'],
  ['contentType', 'ContentType', 'string'],
  ['qps', 'QPS', 'float32'],
  ['burst', 'Burst', 'int32'],
]);
const CONFIGURATION = struct('v1beta1.KubeSchedulerConfiguration', [
  ['apiVersion', 'APIVersion', 'string'],
  ['kind', 'Kind', 'string'],
  ['parallelism', 'Parallelism', 'int32'],
  ['leaderElection', 'LeaderElection', LEADER_ELECTION],
  ['clientConnection', 'ClientConnection', CLIENT_CONNECTION],
  ['healthzBindAddress', 'HealthzBindAddress', 'string'],
  ['metricsBindAddress', 'MetricsBindAddress', 'string'],
  ['enableProfiling', 'EnableProfiling', 'bool'],
  ['enableContentionProfiling', 'EnableContentionProfiling', 'bool'],
  ['percentageOfNodesToScore', 'PercentageOfNodesToScore', 'int32'],
  ['podInitialBackoffSeconds', 'PodInitialBackoffSeconds', 'int32'],
  ['podMaxBackoffSeconds', 'PodMaxBackoffSeconds', 'int32'],
  ['profiles', 'Profiles', { slice: PROFILE }],
  ['extenders', 'Extenders', { slice: EXTENDER }],
]);

/** A configuration file that cannot be used; the message is upstream's. */
export class ConfigDecodeError extends Error {}

/** Go's encoding/json rendering of a value: keys sorted, compact (what YAMLToJSON produces). */
export function goJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (isPlainObject(v)) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${goJson(v[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

/**
 * Decodes a configuration file's text for the accepted apiVersion; throws ConfigDecodeError with
 * upstream's message for YAML errors, a missing or unknown group/version/kind, an unknown field
 * or a value of the wrong type.
 */
export function decodeConfiguration(text: string, apiVersion: string): KubeSchedulerConfiguration {
  let doc: unknown;
  try {
    doc = decodeYaml(text, { version: '1.1', uniqueKeys: true, maxDepth: 10_000 });
  } catch (e) {
    if (e instanceof YamlDecodeError) throw new ConfigDecodeError(e.message);
    throw e;
  }
  const json = goJson(doc);
  if (!isPlainObject(doc))
    throw new ConfigDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonType(doc)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  const version = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  if (kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${json}'`);
  if (version === '') throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${json}'`);
  if (version !== apiVersion || kind !== 'KubeSchedulerConfiguration') {
    const slash = version.indexOf('/');
    const gv = slash < 0 ? version : `${version.slice(0, slash)}/${version.slice(slash + 1)}`;
    throw new ConfigDecodeError(`no kind "${kind}" is registered for version "${gv}" in scheme "pkg/scheduler/apis/config/scheme/scheme.go:30"`);
  }
  checkTypes(doc, CONFIGURATION, CONFIGURATION.go.split('.')[1]);
  const unknown = firstUnknownField(doc);
  if (unknown) throw new ConfigDecodeError(`strict decoder error for ${text}: ${unknown}`);
  return doc as KubeSchedulerConfiguration;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  return typeof v === 'boolean' ? 'bool' : typeof v;
}

// encoding/json's UnmarshalTypeError for a struct field: "json: cannot unmarshal string into Go struct field X.a.b of type int32".
function checkTypes(v: Record<string, unknown>, schema: StructSchema, path: string): void {
  for (const [key, value] of Object.entries(v)) {
    const f = schema.fields.get(key);
    if (!f || value === null) continue;
    const here = `${path}.${key}`;
    const fail = (goType: string) => {
      throw new ConfigDecodeError(`json: cannot unmarshal ${jsonType(value)} into Go struct field ${here} of type ${goType}`);
    };
    const t = f.type;
    if (t === 'any') continue;
    if (t === 'string' && typeof value !== 'string') fail('string');
    if (t === 'bool' && typeof value !== 'boolean') fail('bool');
    if ((t === 'int32' || t === 'float32') && typeof value !== 'number') fail(t);
    if (t === 'int32' && typeof value === 'number' && (!Number.isInteger(value) || value > 2 ** 31 - 1 || value < -(2 ** 31)))
      throw new ConfigDecodeError(`json: cannot unmarshal number ${value} into Go struct field ${here} of type int32`);
    if (t === 'Duration') {
      if (typeof value !== 'string') fail('string');
      try {
        parseDuration(value as string);
      } catch (e) {
        throw new ConfigDecodeError((e as Error).message);
      }
    }
    if (typeof t === 'object' && 'slice' in t) {
      if (!Array.isArray(value)) fail(`[]${t.slice.go}`);
      (value as unknown[]).forEach((item) => {
        if (item === null) return;
        if (!isPlainObject(item)) throw new ConfigDecodeError(`json: cannot unmarshal ${jsonType(item)} into Go struct field ${here} of type ${t.slice.go}`);
        checkTypes(item, t.slice, here);
      });
    } else if (typeof t === 'object') {
      if (!isPlainObject(value)) fail(t.go);
      checkTypes(value as Record<string, unknown>, t, here);
    }
  }
}

/**
 * json-iterator's error for the first unknown (or wrongly cased) field met while reading the
 * sorted JSON: the decoders' type path, and the bytes around the position just after `"key":`.
 */
function firstUnknownField(doc: Record<string, unknown>): string | undefined {
  const out: string[] = [];
  let length = 0;
  let found: { path: string; at: number } | undefined;
  const emit = (s: string) => {
    out.push(s);
    length += Buffer.byteLength(s);
  };
  const walk = (v: unknown, schema: FieldType | undefined, wrap: (inner: string) => string): void => {
    if (Array.isArray(v)) {
      emit('[');
      v.forEach((item, i) => {
        if (i > 0) emit(',');
        const elem = schema && typeof schema === 'object' && 'slice' in schema ? schema.slice : undefined;
        walk(item, elem, (inner) => wrap(`[]${elem?.go}: ${inner}`));
      });
      emit(']');
      return;
    }
    if (!isPlainObject(v)) {
      emit(JSON.stringify(v ?? null));
      return;
    }
    const st = schema && typeof schema === 'object' && !('slice' in schema) ? schema : undefined;
    emit('{');
    Object.keys(v)
      .sort()
      .forEach((k, i) => {
        if (i > 0) emit(',');
        emit(`${JSON.stringify(k)}:`);
        const f = st?.fields.get(k);
        if (st && !f && !found) found = { path: wrap(`${st.go}.ReadObject: found unknown field: ${k}`), at: length };
        // Args are a RawExtension: their content is not checked against this schema.
        const inner = f?.type === 'any' || !st ? undefined : f?.type;
        walk(v[k], inner, (msg) => wrap(`${st?.go}.${f?.goName}: ${msg}`));
      });
    emit('}');
  };
  walk(doc, CONFIGURATION, (inner) => inner);
  if (!found) return undefined;
  const buf = Buffer.from(out.join(''));
  const head = found.at;
  const peekStart = Math.max(0, head - 10);
  const contextStart = Math.max(0, head - 50);
  const contextEnd = Math.min(buf.length, head + 50);
  return `${found.path}, error found in #${head - peekStart} byte of ...|${buf.subarray(peekStart, head).toString()}|..., bigger context ...|${buf.subarray(contextStart, contextEnd).toString()}|...`;
}
