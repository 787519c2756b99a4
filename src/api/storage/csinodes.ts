/**
 * CSINode: upstream's ValidateCSINode / ValidateCSINodeUpdate (1.25): each driver has a valid
 * name (once), a node ID of at most 256 characters (the strategy allows the longer limit), a
 * non-negative volume limit and qualified topology keys; an existing driver entry never changes.
 * Upstream's update runs ValidateCSINode and ValidateCSINodeUpdate, which runs it again: its
 * errors appear twice.
 */
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { duplicate, type FieldError, invalid, required } from '../../machinery/status.js';
import { isQualifiedName } from '../../machinery/validation.js';
import { numOrNil, rec, recOrNil, records, str, strings } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG, validateNonnegativeField } from '../core/value-validation.js';
import { validateCSIDriverName } from '../core/volume-validation.js';
import { storage } from '../groups.js';

/** The node ID limit with AllowLongNodeID, which upstream's strategy always sets (192 without). */
const CSI_NODE_ID_MAX_LENGTH = 256;

function drivers(obj: Obj): Record<string, unknown>[] {
  return records(rec(obj.spec).drivers);
}

function driverErrors(driver: Record<string, unknown>, names: Set<string>, fldPath: string): FieldError[] {
  const name = str(driver.name);
  const errs = validateCSIDriverName(name, `${fldPath}.name`);
  const nodeID = str(driver.nodeID);
  if (nodeID === '') errs.push(required(`${fldPath}.nodeID`, ''));
  if (nodeID.length > CSI_NODE_ID_MAX_LENGTH) errs.push(invalid(`${fldPath}.nodeID`, nodeID, `must be ${CSI_NODE_ID_MAX_LENGTH} characters or less`));
  const count = numOrNil(recOrNil(driver.allocatable)?.count);
  if (count !== undefined) errs.push(...validateNonnegativeField(count, `${fldPath}.allocatable.count`));
  if (names.has(name)) errs.push(duplicate(`${fldPath}.name`, name));
  const keys = new Set<string>();
  for (const key of strings(driver.topologyKeys)) {
    if (key === '') errs.push(required(fldPath, ''));
    if (keys.has(key)) errs.push(duplicate(fldPath, key));
    keys.add(key);
    errs.push(...isQualifiedName(key).map((m) => invalid(fldPath, key, m)));
  }
  names.add(name);
  return errs;
}

/** Upstream's ValidateCSINode (without the generic metadata checks). */
export function validateCSINode(obj: Obj): FieldError[] {
  const names = new Set<string>();
  return drivers(obj).flatMap((d, i) => driverErrors(d, names, `spec.drivers[${i}]`));
}

/** Upstream's strategy ValidateUpdate: the node's rules (twice), and no change inside an existing driver entry. */
export function validateCSINodeUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = [...validateCSINode(obj), ...validateCSINode(obj)];
  for (const oldDriver of drivers(old)) {
    for (const driver of drivers(obj)) {
      if (str(oldDriver.name) === str(driver.name) && !semanticEqual(oldDriver, driver)) errs.push(invalid('CSINodeDriver', driver, FIELD_IMMUTABLE_ERROR_MSG));
    }
  }
  return errs;
}

export const csiNodes = storage({
  kind: 'CSINode',
  plural: 'csinodes',
  namespaced: false,
  strategy: { validate: validateCSINode, validateUpdate: validateCSINodeUpdate },
});
