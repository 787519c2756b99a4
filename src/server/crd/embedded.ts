/**
 * Embedded resources (`x-kubernetes-embedded-resource: true`, e.g. a pod template held as a
 * whole object): each must name its apiVersion and kind, as upstream's objectmeta validation
 * of custom resources requires; its metadata is free-form here.
 */
import { type FieldError, invalid, required } from '../../machinery/status.js';
import { isPlainObject } from '../../machinery/object.js';
import { isDNS1035Label } from '../../machinery/validation.js';

type Props = Record<string, unknown>;

/** Whether any node of schema is an embedded resource (versions without one skip the walk). */
export function hasEmbedded(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  if (schema['x-kubernetes-embedded-resource'] === true) return true;
  if (isPlainObject(schema.properties) && Object.values(schema.properties).some(hasEmbedded)) return true;
  return hasEmbedded(schema.items) || hasEmbedded(schema.additionalProperties);
}

function checkResource(path: string, x: Props, errs: FieldError[]): void {
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(`${path}.apiVersion`, 'must not be empty'));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(`${path}.kind`, 'must not be empty'));
  if (Object.hasOwn(x, 'apiVersion')) {
    const v = x.apiVersion;
    if (typeof v !== 'string') errs.push(invalid(`${path}.apiVersion`, v, 'must be a string'));
    else if (v === '') errs.push(invalid(`${path}.apiVersion`, v, 'must not be empty'));
  }
  if (Object.hasOwn(x, 'kind')) {
    const v = x.kind;
    if (typeof v !== 'string') errs.push(invalid(`${path}.kind`, v, 'must be a string'));
    else if (v === '') errs.push(invalid(`${path}.kind`, v, 'must not be empty'));
    else {
      const why = isDNS1035Label(v.toLowerCase());
      if (why.length > 0) errs.push(invalid(`${path}.kind`, v, `may have mixed case, but should otherwise match: ${why.join(',')}`));
    }
  }
}

/** The field errors of every embedded resource in value under schema. */
export function embeddedErrors(value: unknown, schema: Props, path = '', errs: FieldError[] = []): FieldError[] {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (isPlainObject(items)) for (const [i, item] of value.entries()) embeddedErrors(item, items, `${path}[${i}]`, errs);
    return errs;
  }
  if (!isPlainObject(value)) return errs;
  if (path !== '' && schema['x-kubernetes-embedded-resource'] === true) checkResource(path, value, errs);
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const additional = isPlainObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
  for (const [key, v] of Object.entries(value)) {
    const sub = properties && Object.hasOwn(properties, key) && isPlainObject(properties[key]) ? (properties[key] as Props) : additional;
    if (sub !== undefined) embeddedErrors(v, sub, path === '' ? key : `${path}.${key}`, errs);
  }
  return errs;
}
