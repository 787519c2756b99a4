/**
 * Compute-resource names and quantities as upstream's core validation and helper package:
 * standard, native, extended and huge-page resource names, quantity bounds, and container
 * resource requirements (requests <= limits).
 */
import { compareQuantities, type Quantity, quantitySign, quantityString, scaledValue } from '../../machinery/quantity.js';
import { type FieldError, forbiddenField, invalid, PrintedValue, required } from '../../machinery/status.js';
import { isQualifiedName } from '../../machinery/validation.js';
import { quantityOf } from './decoding.js';
import { rec } from '../../machinery/fields.js';
import { IS_NEGATIVE_ERROR_MSG } from './value-validation.js';

const HUGE_PAGES_PREFIX = 'hugepages-';
const REQUESTS_HUGE_PAGES_PREFIX = 'requests.hugepages-';
const DEFAULT_RESOURCE_REQUESTS_PREFIX = 'requests.';
/** Upstream's ResourceDefaultNamespacePrefix: names in this domain are native, not extended. */
const NATIVE_RESOURCE_DOMAIN = 'kubernetes.io/';

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);
/** Upstream's integerResources: object counts, which quota only in whole numbers. */
const INTEGER_RESOURCES: ReadonlySet<string> = new Set([
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'services.nodeports',
  'services.loadbalancers',
]);
/** Upstream's standardQuotaResources: compute and storage requests and limits, and the object counts. */
const STANDARD_QUOTA_RESOURCES: ReadonlySet<string> = new Set([
  ...STANDARD_CONTAINER_RESOURCES,
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  ...INTEGER_RESOURCES,
]);
/** Upstream's standardResources: the quota names and `storage`. */
const STANDARD_RESOURCES: ReadonlySet<string> = new Set([...STANDARD_QUOTA_RESOURCES, 'storage']);
const STANDARD_LIMIT_RANGE_TYPES = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

/** Upstream's IsNativeResource: no domain, or the kubernetes.io domain. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(NATIVE_RESOURCE_DOMAIN);
}

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGE_PAGES_PREFIX);
}

function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith(HUGE_PAGES_PREFIX) || name.startsWith(REQUESTS_HUGE_PAGES_PREFIX);
}

/** Upstream's IsExtendedResourceName: domain-qualified, not native, valid as `requests.<name>`. */
export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(DEFAULT_RESOURCE_REQUESTS_PREFIX)) return false;
  return isQualifiedName(`${DEFAULT_RESOURCE_REQUESTS_PREFIX}${name}`).length === 0;
}

/** Upstream's IsOvercommitAllowed: native resources other than huge pages. */
export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePageResourceName(name);
}

function isIntegerResourceName(name: string): boolean {
  return INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
}

/** Upstream's validateResourceName. */
export function validateResourceName(value: string, fldPath: string): FieldError[] {
  const errs = isQualifiedName(value).map((m) => invalid(fldPath, value, m));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !(STANDARD_RESOURCES.has(value) || isQuotaHugePageResourceName(value))) {
    errs.push(invalid(fldPath, value, 'must be a standard resource type or fully qualified'));
  }
  return errs;
}

/** Upstream's validateContainerResourceName. */
export function validateContainerResourceName(value: string, fldPath: string): FieldError[] {
  const errs = validateResourceName(value, fldPath);
  if (!value.includes('/')) {
    if (!(STANDARD_CONTAINER_RESOURCES.has(value) || isHugePageResourceName(value))) {
      errs.push(invalid(fldPath, value, 'must be a standard resource for containers'));
    }
  } else if (!isNativeResource(value) && !isExtendedResourceName(value)) {
    errs.push(invalid(fldPath, value, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** Upstream's ValidateResourceQuotaResourceName. */
export function validateResourceQuotaResourceName(value: string, fldPath: string): FieldError[] {
  const errs = validateResourceName(value, fldPath);
  if (!value.includes('/') && !isStandardQuotaResourceName(value)) errs.push(invalid(fldPath, value, 'must be a standard resource for quota'));
  return errs;
}

/** Upstream's validateLimitRangeTypeName. */
export function validateLimitRangeTypeName(value: string, fldPath: string): FieldError[] {
  const errs = isQualifiedName(value).map((m) => invalid(fldPath, value, m));
  if (errs.length > 0) return errs;
  if (!value.includes('/') && !STANDARD_LIMIT_RANGE_TYPES.has(value)) {
    errs.push(invalid(fldPath, value, 'must be a standard limit type or fully qualified'));
  }
  return errs;
}

/** Upstream's validateLimitRangeResourceName: Pod and Container limits name container resources. */
export function validateLimitRangeResourceName(limitType: string, value: string, fldPath: string): FieldError[] {
  return limitType === 'Pod' || limitType === 'Container' ? validateContainerResourceName(value, fldPath) : validateResourceName(value, fldPath);
}

/** A quantity printed as upstream's field errors print a resource.Quantity value (unquoted). */
export function printedQuantity(q: Quantity): PrintedValue {
  return new PrintedValue(quantityString(q));
}

/** Upstream's ValidateNonnegativeQuantity. */
export function validateNonnegativeQuantity(q: Quantity, fldPath: string): FieldError[] {
  return quantitySign(q) < 0 ? [invalid(fldPath, quantityString(q), IS_NEGATIVE_ERROR_MSG)] : [];
}

/** Upstream's ValidatePositiveQuantityValue. */
export function validatePositiveQuantityValue(q: Quantity, fldPath: string): FieldError[] {
  return quantitySign(q) <= 0 ? [invalid(fldPath, quantityString(q), 'must be greater than zero')] : [];
}

/** Upstream's validateBasicResource: Value() may not be negative. */
export function validateBasicResource(q: Quantity, fldPath: string): FieldError[] {
  const value = scaledValue(q, 0);
  return value < 0n ? [invalid(fldPath, Number(value), 'must be a valid resource quantity')] : [];
}

/** Upstream's ValidateResourceQuantityValue: non-negative, and whole for integer resources. */
export function validateResourceQuantityValue(resource: string, q: Quantity, fldPath: string): FieldError[] {
  const errs = validateNonnegativeQuantity(q, fldPath);
  if (isIntegerResourceName(resource) && scaledValue(q, -3) % 1000n !== 0n) errs.push(invalid(fldPath, printedQuantity(q), 'must be an integer'));
  return errs;
}

/** Upstream's IsHugePageResourceValueDivisible: a whole number of pages of the name's size. */
function isHugePageValueDivisible(name: string, q: Quantity): boolean {
  // An unparseable page size reads as zero, which is not a page size.
  const pageSize = quantityOf(name.slice(HUGE_PAGES_PREFIX.length));
  if (quantitySign(pageSize) <= 0 || scaledValue(pageSize, -3) % 1000n !== 0n) return false;
  return scaledValue(q, 0) % scaledValue(pageSize, 0) === 0n;
}

function hugePageErrors(name: string, q: Quantity, fldPath: string): FieldError[] {
  if (isHugePageValueDivisible(name, q)) return [];
  return [invalid(fldPath, quantityString(q), `${quantityString(q)} is not positive integer multiple of ${name}`)];
}

/** Upstream's (1.25) ValidateResourceRequirements of a container (or pod overhead). */
export function validateResourceRequirements(requirements: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const r = rec(requirements);
  const limits = rec(r.limits);
  const requests = rec(r.requests);
  const limPath = `${fldPath}.limits`;
  const reqPath = `${fldPath}.requests`;
  let limCpuOrMemory = false;
  let reqCpuOrMemory = false;
  let limHugePages = false;
  let reqHugePages = false;
  for (const [name, v] of Object.entries(limits)) {
    const path = `${limPath}[${name}]`;
    const q = quantityOf(v);
    errs.push(...validateContainerResourceName(name, path), ...validateResourceQuantityValue(name, q, path));
    if (isHugePageResourceName(name)) {
      limHugePages = true;
      errs.push(...hugePageErrors(name, q, path));
    }
    if (name === 'cpu' || name === 'memory') limCpuOrMemory = true;
  }
  for (const [name, v] of Object.entries(requests)) {
    const path = `${reqPath}[${name}]`;
    const q = quantityOf(v);
    errs.push(...validateContainerResourceName(name, path), ...validateResourceQuantityValue(name, q, path));
    if (Object.hasOwn(limits, name)) {
      const cmp = compareQuantities(q, quantityOf(limits[name]));
      if (cmp !== 0 && !isOvercommitAllowed(name)) errs.push(invalid(reqPath, quantityString(q), `must be equal to ${name} limit`));
      else if (cmp > 0) errs.push(invalid(reqPath, quantityString(q), `must be less than or equal to ${name} limit`));
    } else if (!isOvercommitAllowed(name)) {
      errs.push(required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePageResourceName(name)) {
      reqHugePages = true;
      errs.push(...hugePageErrors(name, q, path));
    }
    if (name === 'cpu' || name === 'memory') reqCpuOrMemory = true;
  }
  if (!limCpuOrMemory && !reqCpuOrMemory && (reqHugePages || limHugePages)) errs.push(forbiddenField(fldPath, 'HugePages require cpu or memory'));
  return errs;
}
