/**
 * PersistentVolume and PersistentVolumeClaim validation as upstream's (1.25)
 * ValidatePersistentVolumeSpec, ValidatePersistentVolumeUpdate, ValidatePersistentVolumeClaimSpec
 * and ValidatePersistentVolumeClaimUpdate.
 */
import type { Brand } from '../../machinery/brand.js';
import { type LabelSelector, validateLabelSelector } from '../../machinery/label-selector.js';
import type { Obj } from '../../machinery/object.js';
import { compareQuantities, quantityString } from '../../machinery/quantity.js';
import { type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { isDNS1123Subdomain, nameIsDNSSubdomain } from '../../machinery/validation.js';
import { quantityOf } from './decoding.js';
import { isSet, list, type Rec, rec, strMap, str, strings } from '../../machinery/fields.js';
import { validatePathNoBacksteps } from './path-validation.js';
import { validateBasicResource, validatePositiveQuantityValue, validateResourceQuantityValue } from './resource-validation.js';
import { validateNodeSelector } from './scheduling-validation.js';
import { semanticEqual, specDiff } from './semantic.js';
import { validateImmutableField } from './value-validation.js';

const ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'];
const RECLAIM_POLICIES = ['Delete', 'Recycle', 'Retain'];
const VOLUME_MODES = ['Block', 'Filesystem'];
const MORE_THAN_ONE = 'may not specify more than 1 volume type';

function validateAccessModes(modes: string[], fldPath: string, requiredDetail: string): FieldError[] {
  const errs: FieldError[] = [];
  if (modes.length === 0) errs.push(required(fldPath, requiredDetail));
  let rwop = false;
  let other = false;
  for (const mode of modes) {
    if (!ACCESS_MODES.includes(mode)) errs.push(notSupported(fldPath, mode, ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (ACCESS_MODES.includes(mode)) other = true;
  }
  if (rwop && other) errs.push(forbiddenField(fldPath, 'may not use ReadWriteOncePod with other access modes'));
  return errs;
}

function classNameErrors(name: string, fldPath: string): FieldError[] {
  return nameIsDNSSubdomain(name, false).map((m) => invalid(fldPath, name, m));
}

function validateDataSource(ds: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(ds.name)) errs.push(required(`${fldPath}.name`, ''));
  if (!str(ds.kind)) errs.push(required(`${fldPath}.kind`, ''));
  const apiGroup = str(ds.apiGroup);
  if (!apiGroup && str(ds.kind) !== 'PersistentVolumeClaim') {
    errs.push(invalid(fldPath, str(ds.kind), "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup) errs.push(...isDNS1123Subdomain(apiGroup).map((m) => invalid(`${fldPath}.apiGroup`, apiGroup, m)));
  return errs;
}

/** Upstream's (1.25) ValidatePersistentVolumeClaimSpec at fldPath. */
export function validatePersistentVolumeClaimSpec(spec: Rec, fldPath: string): FieldError[] {
  const errs = validateAccessModes(strings(spec.accessModes), `${fldPath}.accessModes`, 'at least 1 access mode is required');
  if (isSet(spec.selector)) errs.push(...validateLabelSelector(spec.selector as LabelSelector, `${fldPath}.selector`));
  const requests = rec(rec(spec.resources).requests);
  const storagePath = `${fldPath}.resources[storage]`;
  if (!('storage' in requests)) errs.push(required(storagePath, ''));
  else {
    const q = quantityOf(requests.storage);
    const positive = validatePositiveQuantityValue(q, storagePath);
    errs.push(...(positive.length > 0 ? positive : validateResourceQuantityValue('storage', q, storagePath)));
  }
  if (str(spec.storageClassName)) errs.push(...classNameErrors(str(spec.storageClassName), `${fldPath}.storageClassName`));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(str(spec.volumeMode)))
    errs.push(notSupported(`${fldPath}.volumeMode`, str(spec.volumeMode), VOLUME_MODES));
  if (isSet(spec.dataSource)) errs.push(...validateDataSource(rec(spec.dataSource), `${fldPath}.dataSource`));
  if (isSet(spec.dataSourceRef)) errs.push(...validateDataSource(rec(spec.dataSourceRef), `${fldPath}.dataSourceRef`));
  if (isSet(spec.dataSource) && isSet(spec.dataSourceRef)) {
    const a = rec(spec.dataSource);
    const b = rec(spec.dataSourceRef);
    if (str(a.apiGroup) !== str(b.apiGroup) || str(a.kind) !== str(b.kind) || str(a.name) !== str(b.name)) {
      errs.push(invalid(fldPath, `${fldPath}.dataSource`, 'must match dataSourceRef'));
    }
  }
  return errs;
}

function requireFields(s: Rec, p: string, ...keys: string[]): FieldError[] {
  return keys.filter((k) => !str(s[k])).map((k) => required(`${p}.${k}`, ''));
}

type SourceValidator = (s: Rec, p: string) => FieldError[];

/** PersistentVolumeSource members in upstream's validation order: key, conflict segment, own segment, rules. */
const PV_SOURCES: ReadonlyArray<[key: string, conflictSegment: string, segment: string, validate: SourceValidator]> = [
  ['hostPath', 'hostPath', 'hostPath', (s, p) => (str(s.path) ? validatePathNoBacksteps(str(s.path), `${p}.path`) : [required(`${p}.path`, '')])],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', (s, p) => requireFields(s, p, 'pdName')],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => requireFields(s, p, 'volumeID')],
  ['glusterfs', 'glusterfs', 'glusterfs', (s, p) => requireFields(s, p, 'endpoints', 'path')],
  [
    'flocker',
    'flocker',
    'flocker',
    (s, p) => (!str(s.datasetName) && !str(s.datasetUUID) ? [required(p, 'one of datasetName and datasetUUID is required')] : []),
  ],
  [
    'nfs',
    'nfs',
    'nfs',
    (s, p) => [
      ...requireFields(s, p, 'server', 'path'),
      ...(str(s.path).startsWith('/') ? [] : [invalid(`${p}.path`, str(s.path), 'must be an absolute path')]),
    ],
  ],
  ['rbd', 'rbd', 'rbd', (s, p) => [...(list(s.monitors).length === 0 ? [required(`${p}.monitors`, '')] : []), ...requireFields(s, p, 'image')]],
  ['quobyte', 'quobyte', 'quobyte', (s, p) => requireFields(s, p, 'volume')],
  ['cephfs', 'cephFS', 'cephfs', (s, p) => (list(s.monitors).length === 0 ? [required(`${p}.monitors`, '')] : [])],
  ['iscsi', 'iscsi', 'iscsi', (s, p) => requireFields(s, p, 'targetPortal', 'iqn')],
  ['cinder', 'cinder', 'cinder', (s, p) => requireFields(s, p, 'volumeID')],
  [
    'fc',
    'fc',
    'fc',
    (s, p) =>
      list(s.targetWWNs).length < 1 && list(s.wwids).length < 1 ? [required(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both')] : [],
  ],
  ['flexVolume', '', 'flexVolume', (s, p) => requireFields(s, p, 'driver')],
  ['azureFile', 'azureFile', 'azureFile', (s, p) => requireFields(s, p, 'secretName', 'shareName')],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', (s, p) => requireFields(s, p, 'volumePath')],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', (s, p) => requireFields(s, p, 'pdID')],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', (s, p) => requireFields(s, p, 'volumeID')],
  ['azureDisk', 'azureDisk', 'azureDisk', (s, p) => requireFields(s, p, 'diskName', 'diskURI')],
  ['scaleIO', 'scaleIO', 'scaleIO', (s, p) => requireFields(s, p, 'gateway', 'system', 'volumeName')],
  ['local', 'local', 'local', (s, p) => (str(s.path) ? validatePathNoBacksteps(str(s.path), `${p}.path`) : [required(`${p}.path`, '')])],
  ['storageos', 'storageos', 'storageos', (s, p) => requireFields(s, p, 'volumeName')],
  ['csi', 'csi', 'csi', (s, p) => [...(str(s.driver) ? [] : [required(`${p}.driver`, '')]), ...requireFields(s, p, 'volumeHandle')]],
];

function validateVolumeNodeAffinity(affinity: unknown, fldPath: string): { specified: boolean; errs: FieldError[] } {
  if (!isSet(affinity)) return { specified: false, errs: [] };
  const requiredTerms = rec(affinity).required;
  if (!isSet(requiredTerms)) return { specified: true, errs: [required(`${fldPath}.required`, 'must specify required node constraints')] };
  return { specified: true, errs: validateNodeSelector(rec(requiredTerms), `${fldPath}.required`) };
}

/** Upstream's (1.25) ValidatePersistentVolumeSpec of a PersistentVolume object. */
export function validatePersistentVolumeSpec(spec: Rec): FieldError[] {
  const errs = validateAccessModes(strings(spec.accessModes), 'spec.accessModes', '');
  const capacity = rec(spec.capacity);
  const keys = Object.keys(capacity);
  if (keys.length === 0) errs.push(required('spec.capacity', ''));
  if (!('storage' in capacity) || keys.length > 1) {
    const shown = `core.ResourceList{${keys.map((k) => `${JSON.stringify(k)}:${quantityString(quantityOf(capacity[k]))}`).join(', ')}}`;
    errs.push(notSupported('spec.capacity', new PrintedValue(shown), ['storage']));
  }
  for (const k of keys) {
    const q = quantityOf(capacity[k]);
    errs.push(...validateBasicResource(q, `spec.capacity[${k}]`), ...validatePositiveQuantityValue(q, `spec.capacity[${k}]`));
  }
  const policy = str(spec.persistentVolumeReclaimPolicy);
  if (policy && !RECLAIM_POLICIES.includes(policy)) errs.push(notSupported('spec.persistentVolumeReclaimPolicy', policy, RECLAIM_POLICIES));
  const { specified, errs: affinityErrs } = validateVolumeNodeAffinity(spec.nodeAffinity, 'spec.nodeAffinity');
  errs.push(...affinityErrs);
  let numVolumes = 0;
  for (const [key, conflictSegment, segment, validate] of PV_SOURCES) {
    if (!isSet(spec[key])) continue;
    if (numVolumes > 0 && conflictSegment) {
      errs.push(forbiddenField(`spec.${conflictSegment}`, MORE_THAN_ONE));
      continue;
    }
    numVolumes++;
    errs.push(...validate(rec(spec[key]), `spec.${segment}`));
    if (key === 'local' && !specified) errs.push(required('spec.nodeAffinity', 'Local volume requires node affinity'));
  }
  if (numVolumes === 0) errs.push(required('spec', 'must specify a volume type'));
  const hostPath = str(rec(spec.hostPath).path);
  if (isSet(spec.hostPath) && hostPath.replace(/\/+/g, '/').replace(/(.)\/$/, '$1') === '/' && policy === 'Recycle') {
    errs.push(forbiddenField('spec.persistentVolumeReclaimPolicy', "may not be 'recycle' for a hostPath mount of '/'"));
  }
  if (str(spec.storageClassName)) errs.push(...classNameErrors(str(spec.storageClassName), 'spec.storageClassName'));
  if (isSet(spec.volumeMode) && !VOLUME_MODES.includes(str(spec.volumeMode))) errs.push(notSupported('spec.volumeMode', str(spec.volumeMode), VOLUME_MODES));
  return errs;
}

const PV_SOURCE_KEYS = PV_SOURCES.map(([key]) => key);

function volumeSource(spec: Rec): Rec {
  return Object.fromEntries(PV_SOURCE_KEYS.filter((k) => k in spec).map((k) => [k, spec[k]]));
}

/** Upstream's (1.25) ValidatePersistentVolumeUpdate (after ValidatePersistentVolume). */
export function validatePersistentVolumeUpdate(pv: Obj, old: Obj): FieldError[] {
  const spec = rec(pv.spec);
  const oldSpec = rec(old.spec);
  const errs = validatePersistentVolumeSpec(spec);
  const next = volumeSource(spec);
  const prev = volumeSource(oldSpec);
  // A CSI volume may gain a controllerExpandSecretRef it did not have.
  if (isSet(prev.csi) && !isSet(rec(prev.csi).controllerExpandSecretRef) && isSet(rec(next.csi).controllerExpandSecretRef)) {
    next.csi = { ...rec(next.csi), controllerExpandSecretRef: undefined };
  }
  if (!semanticEqual(next, prev)) {
    errs.push(
      forbiddenField(
        'spec.persistentvolumesource',
        `spec.persistentvolumesource is immutable after creation\n${specDiff('core.PersistentVolumeSource', prev, next)}`,
      ),
    );
  }
  errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  if (isSet(oldSpec.nodeAffinity) && !semanticEqual(spec.nodeAffinity, oldSpec.nodeAffinity)) {
    errs.push(invalid('nodeAffinity', spec.nodeAffinity ?? null, 'field is immutable, except for updating from beta label to GA'));
  }
  return errs;
}

/** The beta storage-class annotation (volume.beta.kubernetes.io/storage-class upstream). */
function storageClassAnnotation(brand: Brand): string {
  return `volume.beta.${brand.labelDomain}/storage-class`;
}

/** Upstream's (1.25) ValidatePersistentVolumeClaimUpdate (after ValidatePersistentVolumeClaim). */
export function validatePersistentVolumeClaimUpdate(pvc: Obj, old: Obj, brand: Brand): FieldError[] {
  const spec = rec(pvc.spec);
  const oldSpec = rec(old.spec);
  const errs = validatePersistentVolumeClaimSpec(spec, 'spec');
  const newClone: Rec = structuredClone(spec);
  const oldClone: Rec = structuredClone(oldSpec);
  // The volume controller sets volumeName once.
  if (!str(oldSpec.volumeName)) oldClone.volumeName = newClone.volumeName;
  const key = storageClassAnnotation(brand);
  const oldAnnotations = strMap(old.metadata?.annotations) ?? {};
  const newAnnotations = strMap(pvc.metadata?.annotations) ?? {};
  const upgrade =
    key in oldAnnotations &&
    !isSet(oldSpec.storageClassName) &&
    isSet(spec.storageClassName) &&
    str(spec.storageClassName) === oldAnnotations[key] &&
    (!(key in newAnnotations) || newAnnotations[key] === oldAnnotations[key]);
  if (upgrade) delete newClone.storageClassName;
  else if ((newAnnotations[key] ?? '') !== (oldAnnotations[key] ?? ''))
    errs.push(invalid(`metadata.annotations.${key}`, newAnnotations[key] ?? '', 'field is immutable'));
  const bound = str(rec(pvc.status).phase) === 'Bound';
  const newRequests = rec(rec(newClone.resources).requests);
  if (bound && isSet(rec(newClone.resources).requests)) newRequests.storage = rec(rec(oldSpec.resources).requests).storage;
  if (!semanticEqual(newClone, oldClone)) {
    errs.push(
      forbiddenField(
        'spec',
        `spec is immutable after creation except resources.requests for bound claims\n${specDiff('core.PersistentVolumeClaimSpec', oldClone, newClone)}`,
      ),
    );
  }
  const newSize = quantityOf(rec(rec(spec.resources).requests).storage);
  const oldSize = quantityOf(rec(rec(oldSpec.resources).requests).storage);
  if (compareQuantities(newSize, oldSize) < 0) errs.push(forbiddenField('spec.resources.requests.storage', 'field can not be less than previous value'));
  errs.push(...validateImmutableField(spec.volumeMode, oldSpec.volumeMode, 'volumeMode'));
  return errs;
}

/** Upstream's ValidatePersistentVolumeClaimStatusUpdate (the parts beyond metadata). */
export function validatePersistentVolumeClaimStatusUpdate(pvc: Obj): FieldError[] {
  const errs: FieldError[] = [];
  if (strings(rec(pvc.spec).accessModes).length === 0) errs.push(required('Spec.accessModes', ''));
  const capacity = rec(rec(pvc.status).capacity);
  for (const k of Object.keys(capacity)) errs.push(...validateBasicResource(quantityOf(capacity[k]), `status.capacity[${k}]`));
  return errs;
}
