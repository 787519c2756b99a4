/**
 * Validation of custom resources against their version's openAPIV3Schema: ajv checks a JSON
 * Schema converted from the structural schema once per version, and its errors are rewritten
 * as upstream's (kube-openapi's messages, turned into field errors the way apiextensions'
 * kubeOpenAPIResultToFieldErrors does), e.g. `spec.replicas: Invalid value: "string":
 * spec.replicas in body must be of type integer: "string"`.
 */
import { isIP } from 'node:net';
import { createRequire } from 'node:module';
import type { Ajv as AjvClass, ErrorObject, ValidateFunction } from 'ajv';

// ajv (CommonJS) is required on the first schema, not imported: a cluster without custom
// resources never pays its load time at start-up, and the constructor stays synchronous.
let ajvClass: typeof AjvClass | undefined;
function loadAjv(): typeof AjvClass {
  ajvClass ??= (createRequire(import.meta.url)('ajv') as { Ajv: typeof AjvClass }).Ajv;
  return ajvClass;
}
import { type FieldError, invalid, notSupported, required } from '../../machinery/status.js';
import { isPlainObject, type Obj } from '../../machinery/object.js';

type Props = Record<string, unknown>;

/** Value validations carried over as they are (OpenAPI v3.0 and JSON Schema agree on them). */
const SAME_KEYWORDS = [
  'enum',
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'minProperties',
  'maxProperties',
  'required',
];

/**
 * The string formats upstream checks (go-openapi's strfmt registry) that orch checks too;
 * any other format (int32, int64, double, password...) is, as there, not a constraint.
 */
const FORMATS: Readonly<Record<string, RegExp | ((v: string) => boolean)>> = {
  'date-time': (v) => /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v.replace(' ', 'T'))),
  date: (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(v)),
  uuid: /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  ipv4: (v) => isIP(v) === 4,
  ipv6: (v) => isIP(v) === 6,
  hostname: /^(?=.{1,255}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/,
  email: /^[^\s@]+@[^\s@]+$/,
};

/** The JSON Schema ajv validates for one structural schema node. */
export function toJsonSchema(s: Props): Props {
  const out: Props = {};
  if (typeof s.type === 'string') out.type = s.nullable === true ? [s.type, 'null'] : s.type;
  if (s['x-kubernetes-int-or-string'] === true && s.anyOf === undefined && s.type === undefined) {
    out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  }
  for (const k of SAME_KEYWORDS) if (s[k] !== undefined) out[k] = s[k];
  if (typeof s.format === 'string' && Object.hasOwn(FORMATS, s.format)) out.format = s.format;
  // OpenAPI v3.0's exclusive bounds are flags on minimum / maximum.
  if (typeof s.maximum === 'number') out[s.exclusiveMaximum === true ? 'exclusiveMaximum' : 'maximum'] = s.maximum;
  if (typeof s.minimum === 'number') out[s.exclusiveMinimum === true ? 'exclusiveMinimum' : 'minimum'] = s.minimum;
  if (isPlainObject(s.properties)) {
    const props: Props = {};
    for (const [k, v] of Object.entries(s.properties)) if (isPlainObject(v)) props[k] = toJsonSchema(v);
    out.properties = props;
  }
  if (isPlainObject(s.additionalProperties)) out.additionalProperties = toJsonSchema(s.additionalProperties);
  if (isPlainObject(s.items)) out.items = toJsonSchema(s.items);
  for (const k of ['allOf', 'anyOf', 'oneOf']) {
    if (Array.isArray(s[k])) out[k] = (s[k] as unknown[]).filter(isPlainObject).map((v) => toJsonSchema(v));
  }
  if (isPlainObject(s.not)) out.not = toJsonSchema(s.not);
  return out;
}

/** A compiled validator of one custom resource version. */
export class SchemaValidator {
  private readonly check: ValidateFunction | undefined;
  private readonly failure: string | undefined;

  constructor(schema: Props) {
    // One instance per schema, so a deleted definition's compiled code goes with it. The JSON
    // Schema is built here, so ajv's meta-schema (20 ms per instance) is left out.
    const Ajv = loadAjv();
    const ajv = new Ajv({
      allErrors: true,
      verbose: true,
      strict: false,
      unicodeRegExp: true,
      meta: false,
      validateSchema: false,
      addUsedSchema: false,
      formats: FORMATS,
    });
    const root = toJsonSchema(schema);
    // metadata is ObjectMeta, validated as every object's; the schema restricts at most name.
    if (isPlainObject(root.properties)) delete root.properties.metadata;
    try {
      this.check = ajv.compile(root);
    } catch (e) {
      // CRD validation refuses what cannot compile; a schema stored before that still answers.
      this.failure = `the schema cannot be compiled: ${(e as Error).message}`;
    }
  }

  /** Upstream's field errors of obj, in the order the schema reports them. */
  validate(obj: Obj): FieldError[] {
    if (this.check === undefined) return [invalid('', '', this.failure)];
    if (this.check(obj)) return [];
    return (this.check.errors ?? []).flatMap((e) => fieldErrorOf(e));
  }
}

/** `a.b.0.c` as kube-openapi names a value: fields and list indexes joined by dots. */
function nameOf(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** The JSON type kube-openapi reports for a decoded value (integral numbers are integers). */
function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** Go's %v of a float64 (strconv 'g', shortest): exponent form from 1e+06 and below 1e-04. */
export function goFloat(n: number): string {
  if (n === 0 || !Number.isFinite(n)) return String(n);
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp >= -4 && exp < 6) return String(n);
  const [mantissa, e] = n.toExponential().split('e');
  const sign = e.startsWith('-') ? '-' : '+';
  const digits = e.replace(/^[+-]/, '');
  return `${mantissa}e${sign}${digits.length < 2 ? `0${digits}` : digits}`;
}

function child(name: string, key: string): string {
  return name === '' ? key : `${name}.${key}`;
}

function fieldErrorOf(e: ErrorObject): FieldError[] {
  const name = nameOf(e.instancePath);
  const p = e.params as Record<string, unknown>;
  const v = e.data;
  const at = (detail: string): FieldError => invalid(name, v === undefined ? '' : v, `${name} in body ${detail}`);
  switch (e.keyword) {
    case 'type': {
      const actual = jsonTypeOf(v);
      const wanted = String(p.type)
        .split(',')
        .filter((t) => t !== 'null');
      // A whole number where a number is wanted is one (ajv already accepts it); integer,string is int-or-string.
      return [{ type: 'FieldValueInvalid', field: name, value: actual, detail: `${name} in body must be of type ${wanted.join(',')}: "${actual}"` }];
    }
    case 'required':
      return [required(child(name, String(p.missingProperty)))];
    case 'enum':
      return [
        notSupported(
          name,
          v,
          ((p.allowedValues as unknown[]) ?? []).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))),
        ),
      ];
    case 'format':
      // go-openapi reports a format as a type: `must be of type date-time: "<value>"`.
      return [invalid(name, v, `${name} in body must be of type ${String(p.format)}: ${JSON.stringify(v)}`)];
    case 'pattern':
      return [at(`should match '${String(p.pattern)}'`)];
    case 'maximum':
      return [at(`should be less than or equal to ${goFloat(Number(p.limit))}`)];
    case 'exclusiveMaximum':
      return [at(`should be less than ${goFloat(Number(p.limit))}`)];
    case 'minimum':
      return [at(`should be greater than or equal to ${goFloat(Number(p.limit))}`)];
    case 'exclusiveMinimum':
      return [at(`should be greater than ${goFloat(Number(p.limit))}`)];
    case 'maxLength':
      return [{ type: 'FieldValueTooLong', field: name, value: v, detail: `may not be longer than ${String(p.limit)}` }];
    case 'minLength':
      return [at(`should be at least ${String(p.limit)} chars long`)];
    case 'maxItems':
      return [{ type: 'FieldValueTooMany', field: name, value: v, detail: `${Array.isArray(v) ? v.length : -1}: must have at most ${String(p.limit)} items` }];
    case 'minItems':
      return [at(`should have at least ${String(p.limit)} items`)];
    case 'uniqueItems':
      return [at("shouldn't contain duplicates")];
    case 'multipleOf':
      return [at(`should be a multiple of ${goFloat(Number(p.multipleOf))}`)];
    case 'maxProperties':
      return [
        {
          type: 'FieldValueTooMany',
          field: name,
          value: v,
          detail: `${isPlainObject(v) ? Object.keys(v).length : -1}: must have at most ${String(p.limit)} items`,
        },
      ];
    case 'minProperties':
      return [at(`should have at least ${String(p.limit)} properties`)];
    case 'anyOf':
      return [invalid(name, '', `${name} in body must validate at least one schema (anyOf)`)];
    case 'oneOf':
      return [invalid(name, '', `${name} in body must validate one and only one schema (oneOf)`)];
    case 'not':
      return [invalid(name, '', `${name} in body must not validate the schema (not)`)];
    default:
      return [invalid(name, v === undefined ? '' : v, `${name} in body ${e.message ?? 'is invalid'}`)];
  }
}
