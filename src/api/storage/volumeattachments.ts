/**
 * VolumeAttachment: upstream's ValidateVolumeAttachment plus the storage/v1 extras (the attacher
 * is a CSI driver name, a persistent volume name is a valid name), status limits, and a spec
 * that never changes (1.25).
 */
import type { Obj } from '../../machinery/object.js';
import { semanticEqual } from '../core/semantic.js';
import { type FieldError, forbiddenField, invalid, required, tooLong } from '../../machinery/status.js';
import { nameIsDNSSubdomain } from '../../machinery/validation.js';
import { isSet, rec, recOrNil, str } from '../../machinery/fields.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../core/value-validation.js';
import { validateCSIDriverName } from '../core/volume-validation.js';
import { storage } from '../groups.js';
import type { Strategy } from '../types.js';

const MAX_ATTACHED_VOLUME_METADATA_SIZE = 256 * (1 << 10);
const MAX_VOLUME_ERROR_MESSAGE_SIZE = 1024;

function sourceErrors(source: Record<string, unknown>): FieldError[] {
  const hasInline = isSet(source.inlineVolumeSpec);
  const hasPV = isSet(source.persistentVolumeName);
  if (!hasInline && !hasPV) return [required('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (hasInline && hasPV) return [forbiddenField('spec.source', 'must specify exactly one of inlineVolumeSpec and persistentVolumeName')];
  if (hasPV && str(source.persistentVolumeName) === '') return [required('spec.source.persistentVolumeName', 'must specify non empty persistentVolumeName')];
  return [];
}

function statusErrors(status: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  let size = 0;
  for (const [k, v] of Object.entries(rec(status.attachmentMetadata))) size += Buffer.byteLength(k) + Buffer.byteLength(str(v));
  if (size > MAX_ATTACHED_VOLUME_METADATA_SIZE) errs.push(tooLong('status.attachmentMetadata', status.attachmentMetadata, MAX_ATTACHED_VOLUME_METADATA_SIZE));
  for (const key of ['attachError', 'detachError']) {
    const message = str(recOrNil(status[key])?.message);
    // Upstream reports the metadata limit here, though it checks the message against 1024.
    if (message.length > MAX_VOLUME_ERROR_MESSAGE_SIZE) errs.push(tooLong(`status.${key}.message`, message, MAX_ATTACHED_VOLUME_METADATA_SIZE));
  }
  return errs;
}

/** Upstream's ValidateVolumeAttachment and ValidateVolumeAttachmentV1 (without the generic metadata checks). */
export function validateVolumeAttachment(obj: Obj): FieldError[] {
  const spec = rec(obj.spec);
  const attacher = str(spec.attacher);
  const nodeName = str(spec.nodeName);
  const errs: FieldError[] = [];
  if (attacher === '') errs.push(required('spec.attacher', ''));
  errs.push(...sourceErrors(rec(spec.source)));
  errs.push(...nameIsDNSSubdomain(nodeName, false).map((m) => invalid('spec.nodeName', nodeName, m)));
  errs.push(...statusErrors(rec(obj.status)));
  errs.push(...validateCSIDriverName(attacher, 'spec.attacher'));
  const pvName = rec(spec.source).persistentVolumeName;
  if (typeof pvName === 'string') errs.push(...nameIsDNSSubdomain(pvName, false).map((m) => invalid('spec.source.persistentVolumeName', pvName, m)));
  return errs;
}

/** Upstream's ValidateVolumeAttachmentUpdate: only the status may change. */
export function validateVolumeAttachmentUpdate(obj: Obj, old: Obj): FieldError[] {
  const errs = validateVolumeAttachment(obj);
  if (!semanticEqual(obj.spec, old.spec)) errs.push(invalid('spec', obj.spec ?? null, FIELD_IMMUTABLE_ERROR_MSG));
  return errs;
}

const volumeAttachmentStrategy: Strategy = {
  validate: validateVolumeAttachment,
  validateUpdate: validateVolumeAttachmentUpdate,
};

export const volumeAttachments = storage({
  kind: 'VolumeAttachment',
  plural: 'volumeattachments',
  namespaced: false,
  subresources: { status: true },
  strategy: volumeAttachmentStrategy,
});
