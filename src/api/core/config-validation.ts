/**
 * ConfigMap and Secret decoding, defaulting and validation as upstream's (1.25): keys are config
 * keys, data and binaryData may not share one, the total size is at most 1 MiB, immutable
 * objects keep their data, and each well-known Secret type carries its required keys.
 * Secret types and their annotation use the brand's label domain (kubernetes.io upstream).
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { type FieldError, forbiddenField, invalid, required } from '../../machinery/status.js';
import { DecodeError } from './decoding.js';
import { type Rec, rec, str } from '../../machinery/fields.js';
import { Base64Error, decodeGoBase64 } from './go-base64.js';
import { isConfigMapKey, validateImmutableField } from './value-validation.js';
import { setOwn } from '../../machinery/own-property.js';

/** Upstream's MaxSecretSize (also the ConfigMap limit). */
export const MAX_SECRET_SIZE = 1024 * 1024;

const IMMUTABLE_WHEN_SET = 'field is immutable when `immutable` is set';

function tooLong(field: string): FieldError {
  return { type: 'FieldValueTooLong', field, value: '', detail: `must have at most ${MAX_SECRET_SIZE} bytes` };
}

function decodeBase64(value: unknown): Buffer {
  try {
    return decodeGoBase64(str(value));
  } catch (e) {
    if (e instanceof Base64Error) throw new DecodeError(e.message);
    throw e;
  }
}

/**
 * Decodes every []byte value of a map field, as the JSON decoder would (400 on bad base64).
 * Validation reads values the decode step already accepted, so it asks for a lenient read.
 */
function decodeByteMap(map: unknown, lenient = false): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [k, v] of Object.entries(rec(map))) {
    try {
      out.set(k, decodeBase64(v));
    } catch (e) {
      if (!lenient) throw e;
      out.set(k, Buffer.alloc(0));
    }
  }
  return out;
}

/** ConfigMap decode: binaryData must be base64. */
export function decodeConfigMap(cm: Obj): void {
  decodeByteMap(cm.binaryData);
}

/** Upstream's ValidateConfigMap (object metadata is the registry's). */
export function validateConfigMap(cm: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const data = rec(cm.data);
  const binary = decodeByteMap(cm.binaryData, true);
  let total = 0;
  for (const [key, value] of Object.entries(data)) {
    errs.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)));
    if (binary.has(key)) errs.push(invalid(`data[${key}]`, key, 'duplicate of key present in binaryData'));
    total += Buffer.byteLength(str(value));
  }
  for (const [key, value] of binary) {
    errs.push(...isConfigMapKey(key).map((m) => invalid(`binaryData[${key}]`, key, m)));
    total += value.length;
  }
  // Upstream reports the whole object's size at the empty path, printed "[]".
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('[]'));
  return errs;
}

function immutableErrors(obj: Obj, old: Obj, fields: readonly string[]): FieldError[] {
  if (old.immutable !== true) return [];
  const errs: FieldError[] = [];
  if (obj.immutable !== true) errs.push(forbiddenField('immutable', IMMUTABLE_WHEN_SET));
  for (const f of fields) if (!sameMap(rec(obj[f]), rec(old[f]))) errs.push(forbiddenField(f, IMMUTABLE_WHEN_SET));
  return errs;
}

function sameMap(a: Rec, b: Rec): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/** Upstream's ValidateConfigMapUpdate. */
export function validateConfigMapUpdate(cm: Obj, old: Obj): FieldError[] {
  return [...immutableErrors(cm, old, ['data', 'binaryData']), ...validateConfigMap(cm)];
}

/** Upstream's SetDefaults_Secret and the v1 conversion: type Opaque, stringData folded into data. */
export function defaultSecret(secret: Obj): void {
  if (!str(secret.type)) secret.type = 'Opaque';
  decodeByteMap(secret.data);
  if (secret.stringData !== undefined) {
    const data: Rec = { ...rec(secret.data) };
    for (const [k, v] of Object.entries(rec(secret.stringData))) setOwn(data, k, Buffer.from(str(v), 'utf8').toString('base64'));
    secret.data = data;
    delete secret.stringData;
  }
}

/** The well-known Secret types in the brand's domain. */
function secretTypes(brand: Brand) {
  const d = brand.labelDomain;
  return {
    serviceAccountToken: `${d}/service-account-token`,
    dockercfg: `${d}/dockercfg`,
    dockerConfigJson: `${d}/dockerconfigjson`,
    basicAuth: `${d}/basic-auth`,
    sshAuth: `${d}/ssh-auth`,
    tls: `${d}/tls`,
    serviceAccountNameKey: `${d}/service-account.name`,
  };
}

/** A JSON text that Go's json.Unmarshal into map[string]interface{} refuses, with Go's message. */
function goJSONObjectError(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const first = text.trimStart()[0];
    if (first === undefined) return 'unexpected end of JSON input';
    if (!'{["tfn-0123456789'.includes(first)) return `invalid character '${first}' looking for beginning of value`;
    return 'unexpected end of JSON input';
  }
  if (value === null || (typeof value === 'object' && !Array.isArray(value))) return undefined;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
  return `json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`;
}

/** Upstream's ValidateSecret (object metadata is the registry's). */
export function validateSecret(secret: Obj, brand: Brand): FieldError[] {
  const errs: FieldError[] = [];
  const data = decodeByteMap(secret.data, true);
  let total = 0;
  for (const [key, value] of data) {
    errs.push(...isConfigMapKey(key).map((m) => invalid(`data[${key}]`, key, m)));
    total += value.length;
  }
  if (total > MAX_SECRET_SIZE) errs.push(tooLong('data'));
  const t = secretTypes(brand);
  const annotations = rec(secret.metadata?.annotations);
  const requireKey = (key: string): FieldError => required(`data[${key}]`, '');
  const jsonKey = (key: string): void => {
    const bytes = data.get(key);
    if (bytes === undefined) {
      errs.push(requireKey(key));
      return;
    }
    const problem = goJSONObjectError(bytes);
    if (problem !== undefined) errs.push(invalid(`data[${key}]`, '<secret contents redacted>', problem));
  };
  switch (str(secret.type)) {
    case t.serviceAccountToken:
      if (!str(annotations[t.serviceAccountNameKey])) errs.push(required(`metadata.annotations[${t.serviceAccountNameKey}]`, ''));
      break;
    case t.dockercfg:
      jsonKey('.dockercfg');
      break;
    case t.dockerConfigJson:
      jsonKey('.dockerconfigjson');
      break;
    case t.basicAuth:
      if (!data.has('username') && !data.has('password')) errs.push(requireKey('username'), requireKey('password'));
      break;
    case t.sshAuth:
      if ((data.get('ssh-privatekey')?.length ?? 0) === 0) errs.push(requireKey('ssh-privatekey'));
      break;
    case t.tls:
      if (!data.has('tls.crt')) errs.push(requireKey('tls.crt'));
      if (!data.has('tls.key')) errs.push(requireKey('tls.key'));
      break;
    default:
  }
  return errs;
}

/** Upstream's ValidateSecretUpdate: the type never changes; an immutable secret keeps its data. */
export function validateSecretUpdate(secret: Obj, old: Obj, brand: Brand): FieldError[] {
  return [...validateImmutableField(secret.type, old.type, 'type'), ...immutableErrors(secret, old, ['data']), ...validateSecret(secret, brand)];
}
