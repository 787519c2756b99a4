/**
 * Pod volume validation as upstream's ValidateVolumes / validateVolumeSource (1.25): names are
 * unique DNS-1123 labels, each volume has exactly one source, and each source's own rules
 * (paths, modes, references) hold. Also the path rules volume mounts share.
 */
import { quantitySign } from '../../machinery/quantity.js';
import { duplicate, type FieldError, forbiddenField, invalid, notSupported, PrintedValue, required } from '../../machinery/status.js';
import { goStringSlice, isDNS1123Subdomain, nameIsDNSSubdomain } from '../../machinery/validation.js';
import { quantityOf } from './decoding.js';
import { validateDownwardAPIFile } from './env-validation.js';
import { isSet, list, numOrNil, type Rec, rec, records, str, strings } from '../../machinery/fields.js';
import { dns1123LabelErrors, validateLocalDescendingPath, validateLocalNonReservedPath, validatePathNoBacksteps } from './path-validation.js';
import { validatePersistentVolumeClaimSpec } from './persistent-volume-validation.js';
import { inclusiveRangeError } from './value-validation.js';

const FILE_MODE_ERROR_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
const MORE_THAN_ONE = 'may not specify more than 1 volume type';

function validateMode(mode: unknown, fldPath: string): FieldError[] {
  const m = numOrNil(mode);
  return m !== undefined && (m > 0o777 || m < 0) ? [invalid(fldPath, m, FILE_MODE_ERROR_MSG)] : [];
}

function validateKeyToPath(kp: Rec, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!str(kp.key)) errs.push(required(`${fldPath}.key`, ''));
  if (!str(kp.path)) errs.push(required(`${fldPath}.path`, ''));
  errs.push(...validateLocalNonReservedPath(str(kp.path), `${fldPath}.path`));
  errs.push(...validateMode(kp.mode, `${fldPath}.mode`));
  return errs;
}

function validateItems(source: Rec, fldPath: string): FieldError[] {
  return records(source.items).flatMap((kp, i) => validateKeyToPath(kp, `${fldPath}.items[${i}]`));
}

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];

function validateHostPath(s: Rec, p: string): FieldError[] {
  if (!str(s.path)) return [required(`${p}.path`, '')];
  const errs = validatePathNoBacksteps(str(s.path), `${p}.path`);
  if (typeof s.type === 'string' && !HOST_PATH_TYPES.includes(s.type)) errs.push(notSupported(`${p}.type`, s.type, HOST_PATH_TYPES));
  return errs;
}

function requireFields(s: Rec, p: string, ...keys: string[]): FieldError[] {
  return keys.filter((k) => !str(s[k])).map((k) => required(`${p}.${k}`, ''));
}

function validatePartition(s: Rec, p: string): FieldError[] {
  const partition = numOrNil(s.partition) ?? 0;
  return partition < 0 || partition > 255 ? [invalid(`${p}.partition`, partition, inclusiveRangeError(1, 255))] : [];
}

function validateNFS(s: Rec, p: string): FieldError[] {
  const errs = requireFields(s, p, 'server', 'path');
  if (!str(s.path).startsWith('/')) errs.push(invalid(`${p}.path`, str(s.path), 'must be an absolute path'));
  return errs;
}

function validateSecretRefName(s: Rec, p: string): FieldError[] {
  return isSet(s.secretRef) && !str(rec(s.secretRef).name) ? [required(`${p}.secretRef.name`, '')] : [];
}

function validateDownwardAPIVolume(s: Rec, p: string): FieldError[] {
  const errs = validateMode(s.defaultMode, `${p}.defaultMode`);
  for (const file of records(s.items)) errs.push(...validateDownwardAPIFile(file, p));
  return errs;
}

function validateProjected(s: Rec, p: string): FieldError[] {
  const errs = validateMode(s.defaultMode, `${p}.defaultMode`);
  const allPaths = new Set<string>();
  const seen = (path: string, value: string): void => {
    if (!path) return;
    if (allPaths.has(path)) errs.push(invalid(p, value, 'conflicting duplicate paths'));
    allPaths.add(path);
  };
  records(s.sources).forEach((source, i) => {
    const srcPath = `${p}.sources[${i}]`;
    let numSources = 0;
    for (const key of ['secret', 'configMap'] as const) {
      if (!isSet(source[key])) continue;
      numSources++;
      const ref = rec(source[key]);
      if (!str(ref.name)) errs.push(required(`${srcPath}.${key}.name`, ''));
      records(ref.items).forEach((kp, j) => {
        errs.push(...validateKeyToPath(kp, `${srcPath}.${key}.items[${j}]`));
        seen(str(kp.path), str(ref.name));
      });
    }
    if (isSet(source.downwardAPI)) {
      numSources++;
      for (const file of records(rec(source.downwardAPI).items)) {
        errs.push(...validateDownwardAPIFile(file, `${srcPath}.downwardAPI`));
        seen(str(file.path), str(file.path));
      }
    }
    if (isSet(source.serviceAccountToken)) {
      numSources++;
      const token = rec(source.serviceAccountToken);
      const expiration = numOrNil(token.expirationSeconds) ?? 0;
      const tokenPath = `${srcPath}.serviceAccountToken`;
      if (expiration < 600) errs.push(invalid(`${tokenPath}.expirationSeconds`, expiration, 'may not specify a duration less than 10 minutes'));
      if (expiration > 2 ** 32) errs.push(invalid(`${tokenPath}.expirationSeconds`, expiration, 'may not specify a duration larger than 2^32 seconds'));
      if (!str(token.path)) errs.push(required(`${p}.path`, ''));
      else errs.push(...validateLocalNonReservedPath(str(token.path), `${p}.path`));
    }
    if (numSources > 1) errs.push(forbiddenField(srcPath, 'may not specify more than 1 volume type per source'));
  });
  return errs;
}

function validateEphemeral(s: Rec, p: string): FieldError[] {
  if (!isSet(s.volumeClaimTemplate)) return [required(`${p}.volumeClaimTemplate`, '')];
  const template = rec(s.volumeClaimTemplate);
  const templatePath = `${p}.volumeClaimTemplate`;
  const errs: FieldError[] = [];
  // Only labels and annotations of the template's metadata are used; anything else may not be set.
  // Upstream checks the decoded struct, where a zero value (`creationTimestamp: null`, "", 0) is not set.
  const meta = rec(template.metadata);
  for (const key of Object.keys(meta)) {
    const zero = meta[key] === null || meta[key] === '' || meta[key] === 0 || meta[key] === false;
    if (key !== 'labels' && key !== 'annotations' && !zero) errs.push(forbiddenField(`${templatePath}.metadata.${key}`, 'cannot be set'));
  }
  errs.push(...validatePersistentVolumeClaimSpec(rec(template.spec), `${templatePath}.spec`));
  return errs;
}

type SourceValidator = (source: Rec, fldPath: string) => FieldError[];

function validateFC(s: Rec, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const wwns = strings(s.targetWWNs);
  const wwids = strings(s.wwids);
  if (wwns.length < 1 && wwids.length < 1) errs.push(required(`${p}.targetWWNs`, 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0) {
    errs.push(invalid(`${p}.targetWWNs`, new PrintedValue(goStringSlice(wwns)), 'targetWWNs and wwids can not be specified simultaneously'));
  }
  if (wwns.length !== 0) {
    const lun = numOrNil(s.lun);
    if (lun === undefined) errs.push(required(`${p}.lun`, 'lun is required if targetWWNs is specified'));
    else if (lun < 0 || lun > 255) errs.push(invalid(`${p}.lun`, lun, inclusiveRangeError(0, 255)));
  }
  return errs;
}

/**
 * The volume sources in upstream's validation order: JSON key, the path segment its
 * "more than 1" error uses (upstream's spelling, typos included), the segment its own errors use,
 * and its validator.
 */
const VOLUME_SOURCES: ReadonlyArray<[key: string, conflictSegment: string, segment: string, validate: SourceValidator]> = [
  [
    'emptyDir',
    'emptyDir',
    'emptyDir',
    (s, p) =>
      isSet(s.sizeLimit) && quantitySign(quantityOf(s.sizeLimit)) < 0
        ? [forbiddenField(`${p}.sizeLimit`, 'SizeLimit field must be a valid resource quantity')]
        : [],
  ],
  ['hostPath', 'hostPath', 'hostPath', validateHostPath],
  ['gitRepo', 'gitRepo', 'gitRepo', (s, p) => [...requireFields(s, p, 'repository'), ...validateLocalDescendingPath(str(s.directory), `${p}.directory`)]],
  ['gcePersistentDisk', 'gcePersistentDisk', 'persistentDisk', (s, p) => [...requireFields(s, p, 'pdName'), ...validatePartition(s, p)]],
  ['awsElasticBlockStore', 'awsElasticBlockStore', 'awsElasticBlockStore', (s, p) => [...requireFields(s, p, 'volumeID'), ...validatePartition(s, p)]],
  ['secret', 'secret', 'secret', (s, p) => [...requireFields(s, p, 'secretName'), ...validateMode(s.defaultMode, `${p}.defaultMode`), ...validateItems(s, p)]],
  ['nfs', 'nfs', 'nfs', validateNFS],
  ['iscsi', 'iscsi', 'iscsi', (s, p) => requireFields(s, p, 'targetPortal', 'iqn')],
  ['glusterfs', 'glusterfs', 'glusterfs', (s, p) => requireFields(s, p, 'endpoints', 'path')],
  [
    'flocker',
    'flocker',
    'flocker',
    (s, p) => (!str(s.datasetName) && !str(s.datasetUUID) ? [required(p, 'one of datasetName and datasetUUID is required')] : []),
  ],
  ['persistentVolumeClaim', 'persistentVolumeClaim', 'persistentVolumeClaim', (s, p) => requireFields(s, p, 'claimName')],
  ['rbd', 'rbd', 'rbd', (s, p) => [...(list(s.monitors).length === 0 ? [required(`${p}.monitors`, '')] : []), ...requireFields(s, p, 'image')]],
  ['cinder', 'cinder', 'cinder', (s, p) => [...requireFields(s, p, 'volumeID'), ...validateSecretRefName(s, p)]],
  ['cephfs', 'cephFS', 'cephfs', (s, p) => (list(s.monitors).length === 0 ? [required(`${p}.monitors`, '')] : [])],
  ['quobyte', 'quobyte', 'quobyte', (s, p) => requireFields(s, p, 'volume')],
  ['downwardAPI', 'downwarAPI', 'downwardAPI', validateDownwardAPIVolume],
  ['fc', 'fc', 'fc', validateFC],
  ['flexVolume', 'flexVolume', 'flexVolume', (s, p) => requireFields(s, p, 'driver')],
  [
    'configMap',
    'configMap',
    'configMap',
    (s, p) => [...requireFields(s, p, 'name'), ...validateMode(s.defaultMode, `${p}.defaultMode`), ...validateItems(s, p)],
  ],
  ['azureFile', 'azureFile', 'azureFile', (s, p) => requireFields(s, p, 'secretName', 'shareName')],
  ['vsphereVolume', 'vsphereVolume', 'vsphereVolume', (s, p) => requireFields(s, p, 'volumePath')],
  ['photonPersistentDisk', 'photonPersistentDisk', 'photonPersistentDisk', (s, p) => requireFields(s, p, 'pdID')],
  ['portworxVolume', 'portworxVolume', 'portworxVolume', (s, p) => requireFields(s, p, 'volumeID')],
  ['azureDisk', 'azureDisk', 'azureDisk', (s, p) => requireFields(s, p, 'diskName', 'diskURI')],
  ['storageos', 'storageos', 'storageos', (s, p) => [...requireFields(s, p, 'volumeName'), ...validateSecretRefName(s, p)]],
  ['projected', 'projected', 'projected', validateProjected],
  ['scaleIO', 'scaleIO', 'scaleIO', (s, p) => requireFields(s, p, 'gateway', 'system', 'volumeName')],
  ['csi', 'csi', 'csi', (s, p) => validateCSIDriverName(str(s.driver), `${p}.driver`)],
  ['ephemeral', 'ephemeral', 'ephemeral', validateEphemeral],
];

/** Upstream's ValidateCSIDriverName. */
export function validateCSIDriverName(driver: string, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!driver) errs.push(required(fldPath, ''));
  if (driver.length > 63) errs.push({ type: 'FieldValueTooLong', field: fldPath, value: driver, detail: 'must have at most 63 bytes' });
  errs.push(...isDNS1123Subdomain(driver.toLowerCase()).map((m) => invalid(fldPath, driver, m)));
  return errs;
}

/** Upstream's validateVolumeSource: exactly one source, and that source's rules. */
function validateVolumeSource(volume: Rec, fldPath: string, podName: string): FieldError[] {
  const errs: FieldError[] = [];
  let numVolumes = 0;
  for (const [key, conflictSegment, segment, validate] of VOLUME_SOURCES) {
    if (!isSet(volume[key])) continue;
    if (numVolumes > 0) {
      errs.push(forbiddenField(`${fldPath}.${conflictSegment}`, MORE_THAN_ONE));
      continue;
    }
    numVolumes++;
    errs.push(...validate(rec(volume[key]), `${fldPath}.${segment}`));
    const volName = str(volume.name);
    if (key === 'ephemeral' && podName && volName) {
      // The claim an ephemeral volume creates is named <pod>-<volume>, so that must be a valid name.
      const claimName = `${podName}-${volName}`;
      for (const m of nameIsDNSSubdomain(claimName, false)) errs.push(invalid(`${fldPath}.name`, volName, `PVC name "${claimName}": ${m}`));
    }
  }
  if (numVolumes === 0) errs.push(required(fldPath, 'must specify a volume type'));
  return errs;
}

/**
 * Upstream's ValidateVolumes: the valid volumes by name (what mounts may refer to) and the
 * errors. A volume with any error is left out of the map, as upstream does. podName is the
 * pod's own name when validating a pod ('' for templates).
 */
export function validateVolumes(volumes: unknown, podName: string, fldPath: string): { volumes: Map<string, Rec>; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const byName = new Map<string, Rec>();
  const createdClaims = new Set<string>();
  if (podName) for (const v of records(volumes)) if (isSet(v.ephemeral)) createdClaims.add(`${podName}-${str(v.name)}`);
  records(volumes).forEach((vol, i) => {
    const idxPath = `${fldPath}[${i}]`;
    const name = str(vol.name);
    const el = validateVolumeSource(vol, idxPath, podName);
    if (!name) el.push(required(`${idxPath}.name`, ''));
    else el.push(...dns1123LabelErrors(name, `${idxPath}.name`));
    if (byName.has(name)) el.push(duplicate(`${idxPath}.name`, name));
    if (el.length === 0) byName.set(name, vol);
    else errors.push(...el);
    const claim = str(rec(vol.persistentVolumeClaim).claimName);
    if (isSet(vol.persistentVolumeClaim) && createdClaims.has(claim)) {
      errors.push(invalid(`${idxPath}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { volumes: byName, errors };
}

/** True for a volume whose source is a claim (what volumeDevices may use). */
export function isClaimVolume(volume: Rec | undefined): boolean {
  return volume !== undefined && (isSet(volume.persistentVolumeClaim) || isSet(volume.ephemeral));
}
