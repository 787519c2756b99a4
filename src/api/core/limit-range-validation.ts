/**
 * LimitRange defaulting and validation as upstream's (1.25) SetDefaults_LimitRangeItem and
 * ValidateLimitRange: standard limit types, resource names per type, and consistent
 * min <= defaultRequest <= default <= max bounds.
 */
import type { Obj } from '../../machinery/object.js';
import { compareQuantities, parseQuantity, type Quantity, quantityString, scaledValue } from '../../machinery/quantity.js';
import { duplicate, type FieldError, forbiddenField, invalid, required } from '../../machinery/status.js';
import { canonicalResourceList, quantityOf } from './decoding.js';
import { childRecords, type Rec, rec, records, str } from '../../machinery/fields.js';
import { isOvercommitAllowed, printedQuantity, validateLimitRangeResourceName, validateLimitRangeTypeName } from './resource-validation.js';
import { setOwn } from '../../machinery/own-property.js';

const LIST_KEYS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'];

/** Upstream's SetDefaults_LimitRangeItem: a container default comes from max, a default request from default or min. */
export function defaultLimitRange(lr: Obj): void {
  for (const item of childRecords(rec(lr.spec), 'limits')) {
    for (const key of LIST_KEYS) canonicalResourceList(item[key]);
    if (item.type !== 'Container') continue;
    const defaults: Rec = { ...rec(item.default) };
    const requests: Rec = { ...rec(item.defaultRequest) };
    for (const [k, v] of Object.entries(rec(item.max))) if (!Object.hasOwn(defaults, k)) setOwn(defaults, k, v);
    for (const [k, v] of Object.entries(defaults)) if (!Object.hasOwn(requests, k)) setOwn(requests, k, v);
    for (const [k, v] of Object.entries(rec(item.min))) if (!Object.hasOwn(requests, k)) setOwn(requests, k, v);
    item.default = defaults;
    item.defaultRequest = requests;
  }
}

/** Go's %f: six decimals. */
function goFloat(v: number): string {
  return Number.isFinite(v) ? v.toFixed(6) : v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
}

const ONE = parseQuantity('1');
const MAX_MILLI_VALUE = 2n ** 63n / 1000n;

function validateBounds(k: string, lists: Record<string, Map<string, Quantity>>, idxPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const min = lists.min.get(k);
  const max = lists.max.get(k);
  const def = lists.default.get(k);
  const defReq = lists.defaultRequest.get(k);
  const ratio = lists.maxLimitRequestRatio.get(k);
  const s = quantityString;
  const cmp = compareQuantities;
  if (min && max && cmp(min, max) > 0)
    errs.push(invalid(`${idxPath}.min[${k}]`, printedQuantity(min), `min value ${s(min)} is greater than max value ${s(max)}`));
  if (defReq && min && cmp(min, defReq) > 0) {
    errs.push(invalid(`${idxPath}.defaultRequest[${k}]`, printedQuantity(defReq), `min value ${s(min)} is greater than default request value ${s(defReq)}`));
  }
  if (defReq && max && cmp(defReq, max) > 0) {
    errs.push(invalid(`${idxPath}.defaultRequest[${k}]`, printedQuantity(defReq), `default request value ${s(defReq)} is greater than max value ${s(max)}`));
  }
  if (defReq && def && cmp(defReq, def) > 0) {
    errs.push(
      invalid(`${idxPath}.defaultRequest[${k}]`, printedQuantity(defReq), `default request value ${s(defReq)} is greater than default limit value ${s(def)}`),
    );
  }
  if (def && min && cmp(min, def) > 0)
    errs.push(invalid(`${idxPath}.default[${k}]`, printedQuantity(min), `min value ${s(min)} is greater than default value ${s(def)}`));
  if (def && max && cmp(def, max) > 0)
    errs.push(invalid(`${idxPath}.default[${k}]`, printedQuantity(max), `default value ${s(def)} is greater than max value ${s(max)}`));
  if (ratio && cmp(ratio, ONE) < 0) errs.push(invalid(`${idxPath}.maxLimitRequestRatio[${k}]`, printedQuantity(ratio), `ratio ${s(ratio)} is less than 1`));
  if (ratio && min && max) {
    let ratioValue = Number(scaledValue(ratio, 0));
    let minValue = scaledValue(min, 0);
    let maxValue = scaledValue(max, 0);
    if (scaledValue(ratio, 0) < MAX_MILLI_VALUE && minValue < MAX_MILLI_VALUE && maxValue < MAX_MILLI_VALUE) {
      ratioValue = Number(scaledValue(ratio, -3)) / 1000;
      minValue = scaledValue(min, -3);
      maxValue = scaledValue(max, -3);
    }
    const limit = Number(maxValue) / Number(minValue);
    if (ratioValue > limit) {
      errs.push(invalid(`${idxPath}.maxLimitRequestRatio[${k}]`, printedQuantity(ratio), `ratio ${s(ratio)} is greater than max/min = ${goFloat(limit)}`));
    }
  }
  if (!isOvercommitAllowed(k) && def && defReq && cmp(def, defReq) !== 0) {
    errs.push(
      invalid(`${idxPath}.defaultRequest[${k}]`, printedQuantity(defReq), `default value ${s(def)} must equal to defaultRequest value ${s(defReq)} in ${k}`),
    );
  }
  return errs;
}

/** Upstream's ValidateLimitRange (object metadata is the registry's). */
export function validateLimitRange(lr: Obj): FieldError[] {
  const errs: FieldError[] = [];
  const types = new Set<string>();
  records(rec(lr.spec).limits).forEach((limit, i) => {
    const idxPath = `spec.limits[${i}]`;
    const type = str(limit.type);
    errs.push(...validateLimitRangeTypeName(type, `${idxPath}.type`));
    if (types.has(type)) errs.push(duplicate(`${idxPath}.type`, type));
    types.add(type);
    const keys = new Set<string>();
    const lists: Record<string, Map<string, Quantity>> = {};
    const collect = (key: string): void => {
      lists[key] = new Map();
      for (const [k, v] of Object.entries(rec(limit[key]))) {
        errs.push(...validateLimitRangeResourceName(type, k, `${idxPath}.${key}[${k}]`));
        keys.add(k);
        lists[key].set(k, quantityOf(v));
      }
    };
    collect('max');
    collect('min');
    if (type === 'Pod') {
      lists.default = new Map();
      lists.defaultRequest = new Map();
      if (Object.keys(rec(limit.default)).length > 0) errs.push(forbiddenField(`${idxPath}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(rec(limit.defaultRequest)).length > 0)
        errs.push(forbiddenField(`${idxPath}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      collect('default');
      collect('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && !lists.min.has('storage') && !lists.max.has('storage')) {
      errs.push(required(`${idxPath}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    collect('maxLimitRequestRatio');
    for (const k of keys) errs.push(...validateBounds(k, lists, idxPath));
  });
  return errs;
}
