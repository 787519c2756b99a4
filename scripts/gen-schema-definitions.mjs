#!/usr/bin/env node
// Writes src/api/schema/definitions.json: the OpenAPI v2 definitions of every served type.
//
// Facts and where they come from (nothing here is invented):
// - structure (fields, JSON keys, scalar formats, lists, maps, inlined structs): the Protobuf
//   messages in src/codec/protobuf/proto (every field of the types as compiled into kubectl 1.33);
// - descriptions and required fields: @kubernetes/client-node's generated models (devDependency);
// - descriptions client-node lacks (fields that are references, Time, Quantity...):
//   scripts/schema-data/descriptions-1.14.json, taken from the 1.14 swagger.json in Debian's
//   golang-k8s-kube-openapi-dev test data;
// - patch strategies and merge keys: scripts/schema-data/patch-strategies.json (the Go struct tags
//   compiled into kubectl, placed on their types);
// - field defaults of list-map keys (ports' protocol): scripts/schema-data/defaults.json;
// - list types, list-map keys, atomic maps and structs: scripts/schema-data/ssa-hints.json (the
//   structured-merge-diff schema client-go carries).
// Run after a build: `node scripts/gen-schema-definitions.mjs`.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { registeredProtobufTypes } = await import(join(root, 'dist/src/codec/protobuf/registry.js'));
const { protoRootFor } = await import(join(root, 'dist/src/codec/protobuf/proto-root.js'));

const MODELS = join(root, 'node_modules/@kubernetes/client-node/dist/gen/models');
const DATA = join(root, 'scripts/schema-data');

/** Upstream's definition name of a Protobuf message (`.k8s.io.api.core.v1.Pod` -> `io.k8s.api.core.v1.Pod`). */
function definitionName(fullName) {
  return `io.k8s.${fullName
    .replace(/^\./, '')
    .replace(/^k8s\.io\./, '')
    .replace(/_/g, '-')}`;
}

function upstreamGroup(stem) {
  return ['', 'apps', 'autoscaling', 'batch', 'extensions', 'policy'].includes(stem) ? stem : `${stem}.k8s.io`;
}

const META = 'io.k8s.apimachinery.pkg.apis.meta.v1';
const APIEXT = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';
/** Messages whose JSON is not an object of their fields (src/codec/protobuf/json-specials.ts). */
const SPECIAL = {
  [`${META}.Time`]: { type: 'string', format: 'date-time' },
  [`${META}.MicroTime`]: { type: 'string', format: 'date-time' },
  [`${META}.FieldsV1`]: { type: 'object' },
  [`${META}.Duration`]: { type: 'string' },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
  [`${APIEXT}.JSON`]: { 'x-kubernetes-preserve-unknown-fields': true },
  [`${APIEXT}.JSONSchemaPropsOrArray`]: { 'x-kubernetes-preserve-unknown-fields': true },
  [`${APIEXT}.JSONSchemaPropsOrBool`]: { 'x-kubernetes-preserve-unknown-fields': true },
  [`${APIEXT}.JSONSchemaPropsOrStringArray`]: { 'x-kubernetes-preserve-unknown-fields': true },
};
/** ExtraValue is a named []string upstream, with no definition of its own. */
const EXTRA_VALUE = /\.ExtraValue$/;

const SCALARS = {
  string: { type: 'string' },
  bool: { type: 'boolean' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  uint32: { type: 'integer', format: 'int32' },
  uint64: { type: 'integer', format: 'int64' },
  double: { type: 'number', format: 'double' },
  float: { type: 'number', format: 'float' },
  bytes: { type: 'string', format: 'byte' },
};

// ---- client-node's models: descriptions and required fields ----
function unescapeDoc(s) {
  return s.replace(/\\(.)/g, '$1');
}
function parseModel(className) {
  const file = join(MODELS, `${className}.d.ts`);
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const classDoc = /\/\*\*\n\* ((?:(?!\*\/)[\s\S])*?)\n\*\/\nexport declare class/.exec(text);
  const props = {};
  const re = /(?:\/\*\*\n\s*\* ((?:(?!\*\/)[\s\S])*?)\n\s*\*\/\n)?\s*'([^']+)'(\??): /g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    props[m[2]] = { description: m[1] === undefined ? undefined : unescapeDoc(m[1].replace(/\n\s*\* ?/g, '\n')), required: m[3] === '' };
  }
  return { description: classDoc ? unescapeDoc(classDoc[1].replace(/\n\* ?/g, '\n')) : undefined, props };
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
/** client-node names a model `V1PodSpec`, or `<Group>V1<Kind>` where two groups share a kind name. */
function modelFor(defName, fieldNames) {
  const parts = defName.split('.');
  const kind = parts.at(-1);
  const version = parts.at(-2);
  let group = parts.at(-3);
  if (defName.startsWith('io.k8s.apiextensions-apiserver')) group = 'apiextensions';
  if (defName.startsWith('io.k8s.kube-aggregator')) group = 'apiregistration';
  const versions = [version, 'v1'];
  for (const v of versions) {
    for (const name of [`${cap(group)}${cap(v)}${kind}`, `${cap(v)}${kind}`]) {
      const model = parseModel(name);
      if (!model) continue;
      const known = fieldNames.filter((f) => f in model.props).length;
      if (fieldNames.length === 0 || known / fieldNames.length >= 0.5) return model;
    }
  }
  return undefined;
}

// ---- patch strategies and SSA hints ----
const patchStrategies = JSON.parse(readFileSync(join(DATA, 'patch-strategies.json'), 'utf8'));
/** Descriptions client-node's models lack (fields that are references, special types), from 1.14's swagger. */
const oldDescriptions = JSON.parse(readFileSync(join(DATA, 'descriptions-1.14.json'), 'utf8'));
/** Field defaults upstream declares in its schema (`+default=` markers; apply needs them for list-map keys). */
const schemaDefaults = JSON.parse(readFileSync(join(DATA, 'defaults.json'), 'utf8'));
const ssaHints = existsSync(join(DATA, 'ssa-hints.json')) ? JSON.parse(readFileSync(join(DATA, 'ssa-hints.json'), 'utf8')) : {};

// ---- walk the messages ----
const definitions = {};
const pending = [];

function refTo(type) {
  const name = definitionName(type.fullName);
  if (EXTRA_VALUE.test(name)) return { type: 'array', items: { type: 'string' } };
  if (!(name in definitions) && !pending.includes(type)) pending.push(type);
  return { $ref: `#/definitions/${name}` };
}

function fieldSchema(field) {
  field.resolve();
  const schemaOfValue = (typeName, resolved) => (resolved ? refTo(resolved) : { ...SCALARS[typeName] });
  if (field.map) {
    return { type: 'object', additionalProperties: schemaOfValue(field.type, field.resolvedType) };
  }
  const one = schemaOfValue(field.type, field.resolvedType);
  if (one.type === undefined && one.$ref === undefined) throw new Error(`${field.fullName}: unknown type ${field.type}`);
  return field.repeated ? { type: 'array', items: one } : one;
}

/** The JSON properties of a message, with inlined (embedded) structs flattened in. */
function properties(type) {
  const props = {};
  for (const field of type.fieldsArray) {
    const key = typeof field.options?.json_name === 'string' ? field.options.json_name : field.name;
    if (field.options?.['(json_shape)'] === 'inline') {
      field.resolve();
      Object.assign(props, properties(field.resolvedType));
      continue;
    }
    props[key] = fieldSchema(field);
  }
  return props;
}

function define(type) {
  const name = definitionName(type.fullName);
  if (name in definitions) return;
  if (name in SPECIAL) {
    definitions[name] = { ...SPECIAL[name] };
  } else {
    // An empty struct is a bare object, as upstream's OpenAPI writes it.
    const props = properties(type);
    definitions[name] = Object.keys(props).length > 0 ? { type: 'object', properties: props } : { type: 'object' };
  }
  const def = definitions[name];
  const fieldNames = Object.keys(def.properties ?? {});
  const model = modelFor(name, fieldNames);
  const described = model?.description ?? oldDescriptions[name]?.[''];
  if (described) def.description = described;
  const required = [];
  for (const [key, prop] of Object.entries(def.properties ?? {})) {
    const doc = model?.props[key];
    const fieldDoc = doc?.description ?? oldDescriptions[name]?.[key];
    if (fieldDoc) prop.description = fieldDoc;
    if (doc?.required) required.push(key);
    const patch = patchStrategies[name]?.[key];
    if (patch?.strategy) prop['x-kubernetes-patch-strategy'] = patch.strategy;
    if (patch?.mergeKey) prop['x-kubernetes-patch-merge-key'] = patch.mergeKey;
    if (schemaDefaults[name]?.[key] !== undefined) prop.default = schemaDefaults[name][key];
    const hint = ssaHints[name]?.fields?.[key];
    if (hint?.listType) prop['x-kubernetes-list-type'] = hint.listType;
    if (hint?.keys) prop['x-kubernetes-list-map-keys'] = hint.keys;
    if (hint?.mapType) prop['x-kubernetes-map-type'] = hint.mapType;
  }
  if (required.length > 0) def.required = required.sort();
  if (ssaHints[name]?.atomic) def['x-kubernetes-map-type'] = 'atomic';
}

for (const [stem, version, kind, message] of registeredProtobufTypes()) {
  const type = protoRootFor(message).lookupType(message);
  define(type);
  const def = definitions[definitionName(type.fullName)];
  (def['x-kubernetes-group-version-kind'] ??= []).push({ group: upstreamGroup(stem), version, kind });
}
for (const extra of ['Status', 'DeleteOptions']) {
  const message = `k8s.io.apimachinery.pkg.apis.meta.v1.${extra}`;
  try {
    define(protoRootFor(message).lookupType(message));
  } catch (e) {
    console.error(`skipped ${extra}: ${e.message}`);
  }
}
while (pending.length > 0) define(pending.shift());

// TypeMeta is not on the wire in Protobuf (the envelope carries it), but every kind has it in JSON.
const TYPE_META = {
  apiVersion: {
    type: 'string',
    description:
      'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  },
  kind: {
    type: 'string',
    description:
      'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  },
};
for (const [name, def] of Object.entries(definitions)) {
  const kinded = def['x-kubernetes-group-version-kind'] !== undefined || name === `${META}.Status` || name === `${META}.DeleteOptions`;
  if (kinded && def.properties) def.properties = { ...TYPE_META, ...def.properties };
}

// Every patch strategy must have found its field: a miss means the data file is stale.
for (const [name, fields] of Object.entries(patchStrategies)) {
  for (const key of Object.keys(fields)) {
    if (!definitions[name]?.properties?.[key]) console.error(`patch strategy for unknown field ${name}.${key}`);
  }
}
const sorted = Object.fromEntries(Object.entries(definitions).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, 'src/api/schema/definitions.json'), `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`${Object.keys(sorted).length} definitions`);
