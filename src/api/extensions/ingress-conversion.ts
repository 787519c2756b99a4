/**
 * extensions/v1beta1 Ingress <-> networking/v1 Ingress, as upstream's conversions in
 * pkg/apis/networking/v1beta1 and extensions/v1beta1: `backend` <-> `defaultBackend`,
 * `serviceName`/`servicePort` <-> `service.name`/`service.port.{name|number}`.
 * The stored form is networking/v1.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Obj } from '../../machinery/object.js';
import { isPlainObject } from '../../machinery/object.js';
import type { Conversion } from '../types.js';

type Json = Record<string, unknown>;
type BackendConversion = (backend: Json) => Json;

/** The v1beta1 path type default (SetDefaults_HTTPIngressPath); networking/v1 requires one. */
const DEFAULT_PATH_TYPE = 'ImplementationSpecific';

/** A v1beta1 backend in its v1 form. */
function backendToV1(b: Json): Json {
  const { serviceName, servicePort, ...rest } = b;
  const out: Json = { ...rest };
  const name = typeof serviceName === 'string' ? serviceName : '';
  if (name !== '' || typeof servicePort === 'string' || (typeof servicePort === 'number' && servicePort !== 0)) {
    const port: Json = {};
    if (typeof servicePort === 'string' && servicePort !== '') port.name = servicePort;
    if (typeof servicePort === 'number' && servicePort !== 0) port.number = servicePort;
    out.service = { name, port };
  }
  return out;
}

/** A v1 backend in its v1beta1 form (a port name wins over a number, as upstream). */
function backendToV1beta1(b: Json): Json {
  const { service, ...rest } = b;
  const out: Json = { ...rest };
  if (isPlainObject(service)) {
    const port = isPlainObject(service.port) ? service.port : {};
    out.serviceName = typeof service.name === 'string' ? service.name : '';
    out.servicePort = typeof port.name === 'string' && port.name !== '' ? port.name : typeof port.number === 'number' ? port.number : 0;
  }
  return out;
}

/** The rules with every path's backend converted (and, towards v1, a default pathType). */
function convertRules(rules: unknown, convert: BackendConversion, defaultPathType: boolean): unknown {
  if (!Array.isArray(rules)) return rules;
  return rules.map((rule) => {
    if (!isPlainObject(rule) || !isPlainObject(rule.http) || !Array.isArray(rule.http.paths)) return rule;
    const paths = rule.http.paths.map((p) => {
      if (!isPlainObject(p)) return p;
      const out: Json = { ...p };
      if (isPlainObject(p.backend)) out.backend = convert(p.backend);
      if (defaultPathType && (out.pathType === undefined || out.pathType === null)) out.pathType = DEFAULT_PATH_TYPE;
      return out;
    });
    return { ...rule, http: { ...rule.http, paths } };
  });
}

/** The Ingress with its spec converted; the default backend moves between `from` and `to`. */
function convertIngress(obj: Obj, apiVersion: string, from: string, to: string, convert: BackendConversion, defaultPathType: boolean): Obj {
  const out: Obj = { ...obj, apiVersion, kind: 'Ingress' };
  if (!isPlainObject(obj.spec)) return out;
  const { [from]: backend, [to]: _foreign, ...spec } = obj.spec;
  const converted: Json = { ...spec };
  if (isPlainObject(backend)) converted[to] = convert(backend);
  if (spec.rules !== undefined) converted.rules = convertRules(spec.rules, convert, defaultPathType);
  out.spec = converted;
  return out;
}

/** An extensions/v1beta1 Ingress in its networking/v1 (stored) form. */
export function ingressToNetworking(obj: Obj, brand: Brand): Obj {
  return convertIngress(obj, `${brand.group('networking', true)}/v1`, 'backend', 'defaultBackend', backendToV1, true);
}

/** A networking/v1 Ingress in its extensions/v1beta1 form. */
export function ingressToExtensions(obj: Obj): Obj {
  return convertIngress(obj, 'extensions/v1beta1', 'defaultBackend', 'backend', backendToV1beta1, false);
}

/** The Conversion of the extensions/v1beta1 view onto networking/v1 storage. */
export const ingressConversion: Conversion = {
  toStorage: (obj, brand) => ingressToNetworking(obj, brand),
  fromStorage: (obj) => ingressToExtensions(obj),
};
