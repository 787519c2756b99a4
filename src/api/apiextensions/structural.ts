/**
 * Upstream's structural-schema invariants (apiextensions' ValidateStructural): every specified
 * node has a type (or is int-or-string / preserves unknown fields), arrays have items,
 * `metadata` restricts at most name and generateName, and value validations under anyOf /
 * allOf / oneOf / not carry no structure of their own. A schema breaking them is refused at
 * CRD create/update, since pruning, defaulting and apply read the structure.
 */
import { type FieldError, forbiddenField, invalid, required } from '../../machinery/status.js';
import { isPlainObject } from '../../machinery/object.js';

type Props = Record<string, unknown>;
type Level = 'root' | 'item' | 'field';

const TYPE_EMPTY: Record<Level, string> = {
  root: 'must not be empty at the root',
  item: 'must not be empty for specified array items',
  field: 'must not be empty for specified object fields',
};

function props(v: unknown): Props | undefined {
  return isPlainObject(v) ? v : undefined;
}

function entries(v: unknown): [string, Props][] {
  const p = props(v);
  return p ? Object.entries(p).flatMap(([k, s]) => (isPlainObject(s) ? [[k, s] as [string, Props]] : [])) : [];
}

function isIntOrStringPair(anyOf: unknown): boolean {
  return (
    Array.isArray(anyOf) &&
    anyOf.length === 2 &&
    anyOf.every((s, i) => isPlainObject(s) && Object.keys(s).length === 1 && s.type === (i === 0 ? 'integer' : 'string'))
  );
}

/** The structural errors of one version's openAPIV3Schema at path, sorted as upstream sorts them. */
export function structuralErrors(schema: Props, path: string): FieldError[] {
  const errs: FieldError[] = [];
  node(schema, 'root', path, errs);
  return errs.sort((a, b) => errorText(a).localeCompare(errorText(b)));
}

function errorText(e: FieldError): string {
  return `${e.field}: ${e.type}: ${e.detail ?? ''}`;
}

function node(s: Props, level: Level, path: string, errs: FieldError[]): void {
  const type = typeof s.type === 'string' ? s.type : '';
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = s['x-kubernetes-embedded-resource'] === true;
  if (type === 'array' && !isPlainObject(s.items)) errs.push(required(`${path}.items`, 'must be specified'));
  if (isPlainObject(s.items)) node(s.items, 'item', `${path}.items`, errs);
  for (const [k, p] of entries(s.properties)) node(p, 'field', `${path}.properties[${k}]`, errs);
  if (s.additionalProperties !== undefined && s.additionalProperties !== true) {
    if (level === 'root') errs.push(forbiddenField(`${path}.additionalProperties`, 'must not be used at the root'));
    if (isPlainObject(s.additionalProperties)) node(s.additionalProperties, 'field', `${path}.additionalProperties`, errs);
  }
  if (isPlainObject(s.properties) && s.additionalProperties !== undefined) {
    errs.push(forbiddenField(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (intOrString && s['x-kubernetes-preserve-unknown-fields'] !== undefined && preserve) {
    errs.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, true, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (intOrString && embedded) errs.push(invalid(`${path}.x-kubernetes-embedded-resource`, true, 'must be false if x-kubernetes-int-or-string is true'));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) {
    errs.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  }
  junctors(s, path, level, isIntOrStringPair(s.anyOf), errs);
  if (embedded && type !== 'object') {
    if (type === '') errs.push(required(`${path}.type`, 'must be object if x-kubernetes-embedded-resource is true'));
    else errs.push(invalid(`${path}.type`, type, 'must be object if x-kubernetes-embedded-resource is true'));
  } else if (type === '' && !intOrString && !preserve) {
    errs.push(required(`${path}.type`, TYPE_EMPTY[level]));
  }
  if (level === 'root' && type !== '' && type !== 'object') errs.push(invalid(`${path}.type`, type, 'must be object at the root'));
  const checkMetadata = level === 'root' || embedded;
  const properties = props(s.properties);
  for (const meta of ['kind', 'apiVersion']) {
    const p = properties && Object.hasOwn(properties, meta) ? props(properties[meta]) : undefined;
    if (p && checkMetadata && p.type !== 'string') errs.push(invalid(`${path}.properties[${meta}].type`, p.type ?? '', 'must be string'));
  }
  const metadata = properties && Object.hasOwn(properties, 'metadata') ? props(properties.metadata) : undefined;
  if (metadata) {
    const mpath = `${path}.properties[metadata]`;
    if (checkMetadata && metadata.type !== 'object') errs.push(invalid(`${mpath}.type`, metadata.type ?? '', 'must be object'));
    if (level === 'root') {
      const names = Object.keys(props(metadata.properties) ?? {});
      const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
      const others = Object.keys(metadata).filter((k) => k !== 'type' && k !== 'properties' && k !== 'default');
      if (!onlyNames || others.length > 0) {
        errs.push(forbiddenField(mpath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
      }
    }
  }
  if (embedded && !preserve && Object.keys(properties ?? {}).length === 0) {
    errs.push(required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
  }
}

/** anyOf / allOf / oneOf / not: value validations only (upstream's validateValueValidation). */
function junctors(s: Props, path: string, level: Level, skipAnyOf: boolean, errs: FieldError[]): void {
  const allOf = Array.isArray(s.allOf) ? s.allOf : [];
  const skipFirstAllOfAnyOf = allOf.length > 0 && isPlainObject(allOf[0]) && isIntOrStringPair(allOf[0].anyOf);
  for (const name of ['anyOf', 'allOf', 'oneOf'] as const) {
    const list = Array.isArray(s[name]) ? (s[name] as unknown[]) : [];
    if (name === 'anyOf' && skipAnyOf) continue;
    list.forEach((v, i) => {
      if (isPlainObject(v)) nested(v, `${path}.${name}[${i}]`, level, name === 'allOf' && i === 0 && skipFirstAllOfAnyOf, errs);
    });
  }
  if (isPlainObject(s.not)) nested(s.not, `${path}.not`, level, false, errs);
  if (typeof s.pattern === 'string') {
    try {
      new RegExp(s.pattern, 'u');
    } catch (e) {
      errs.push(invalid(`${path}.pattern`, s.pattern, `must be a valid regular expression, but isn't: ${(e as Error).message}`));
    }
  }
}

const NESTED_FORBIDDEN: readonly [string, string][] = [
  ['type', 'must be empty to be structural'],
  ['additionalProperties', 'must be undefined to be structural'],
  ['default', 'must be undefined to be structural'],
  ['title', 'must be empty to be structural'],
  ['description', 'must be empty to be structural'],
  ['nullable', 'must be false to be structural'],
  ['externalDocs', 'must be undefined to be structural'],
  ['x-kubernetes-preserve-unknown-fields', 'must be false to be structural'],
  ['x-kubernetes-embedded-resource', 'must be false to be structural'],
  ['x-kubernetes-int-or-string', 'must be false to be structural'],
  ['x-kubernetes-list-map-keys', 'must be empty to be structural'],
  ['x-kubernetes-list-type', 'must be undefined to be structural'],
  ['x-kubernetes-map-type', 'must be undefined to be structural'],
  ['x-kubernetes-validations', 'must be empty to be structural'],
];

/** A value validation inside a junctor: no type, default, description or extension of its own. */
function nested(v: Props, path: string, level: Level, skipAnyOf: boolean, errs: FieldError[]): void {
  junctors(v, path, level, skipAnyOf, errs);
  if (isPlainObject(v.items)) nested(v.items, `${path}.items`, level, false, errs);
  for (const [k, p] of entries(v.properties)) nested(p, `${path}.properties[${k}]`, 'field', false, errs);
  for (const [key, why] of NESTED_FORBIDDEN) {
    const value = v[key];
    if (value === undefined || value === false || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    errs.push(forbiddenField(`${path}.${key}`, why));
  }
  if (isPlainObject(v.properties) && Object.hasOwn(v.properties, 'metadata')) {
    errs.push(forbiddenField(`${path}.properties[metadata]`, 'must not be specified in a nested context'));
  }
}
