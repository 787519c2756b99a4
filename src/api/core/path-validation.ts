/**
 * Path and DNS-name rules shared by volumes, mounts and other core fields, as upstream's
 * validatePathNoBacksteps, validateLocalDescendingPath, ValidateLocalNonReservedPath,
 * ValidateDNS1123Label and ValidateDNS1123Subdomain.
 */
import { type FieldError, invalid } from '../../machinery/status.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../../machinery/validation.js';

/** Upstream's ValidateDNS1123Label as field errors. */
export function dns1123LabelErrors(value: string, fldPath: string): FieldError[] {
  return isDNS1123Label(value).map((m) => invalid(fldPath, value, m));
}

/** Upstream's ValidateDNS1123Subdomain as field errors. */
export function dns1123SubdomainErrors(value: string, fldPath: string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => invalid(fldPath, value, m));
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/');
}

/** Upstream's validatePathNoBacksteps: no `..` element. */
export function validatePathNoBacksteps(targetPath: string, fldPath: string): FieldError[] {
  return targetPath.split('/').includes('..') ? [invalid(fldPath, targetPath, "must not contain '..'")] : [];
}

/** Upstream's validateLocalDescendingPath: relative, no `..` element. */
export function validateLocalDescendingPath(targetPath: string, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (isAbsolutePath(targetPath)) errs.push(invalid(fldPath, targetPath, 'must be a relative path'));
  errs.push(...validatePathNoBacksteps(targetPath, fldPath));
  return errs;
}

/** Upstream's ValidateLocalNonReservedPath: relative, no `..` element, not starting with `..`. */
export function validateLocalNonReservedPath(targetPath: string, fldPath: string): FieldError[] {
  const errs = validateLocalDescendingPath(targetPath, fldPath);
  if (targetPath.startsWith('..') && !targetPath.startsWith('../')) errs.push(invalid(fldPath, targetPath, "must not start with '..'"));
  return errs;
}
