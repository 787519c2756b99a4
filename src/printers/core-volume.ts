/** PersistentVolumes and PersistentVolumeClaims, as upstream's printers. */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column, wide } from './columns.js';
import { CORE_V1 } from './descriptions.js';
import { isSetAt, listAt, strAt, stringMapAt, valueAt } from '../machinery/fields.js';
import { ageOf, isDeleting, nameOf, quantityText } from './format.js';
import type { TablePrinter } from './types.js';

/** helper.GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
function accessModes(modes: unknown[]): string {
  const abbreviations: [string, string][] = [
    ['ReadWriteOnce', 'RWO'],
    ['ReadOnlyMany', 'ROX'],
    ['ReadWriteMany', 'RWX'],
    ['ReadWriteOncePod', 'RWOP'],
  ];
  return abbreviations
    .filter(([mode]) => modes.includes(mode))
    .map(([, abbreviation]) => abbreviation)
    .join(',');
}

/** The beta storage-class annotation, which wins over spec.storageClassName. */
function storageClassAnnotation(brand: Brand): string {
  return `volume.beta.${brand.labelDomain}/storage-class`;
}

/** helper.GetPersistentVolumeClass / GetPersistentVolumeClaimClass. */
function storageClass(obj: Obj, brand: Brand): string {
  const annotations = stringMapAt(obj, 'metadata.annotations');
  const annotated = annotations[storageClassAnnotation(brand)];
  return annotated ?? strAt(obj, 'spec.storageClassName');
}

/** The phase, or Terminating while the object is being deleted. */
function phase(obj: Obj): string {
  return isDeleting(obj) ? 'Terminating' : strAt(obj, 'status.phase');
}

/** spec.volumeMode, "<unset>" when absent. */
function volumeMode(obj: Obj): string {
  return isSetAt(obj, 'spec.volumeMode') ? strAt(obj, 'spec.volumeMode') : '<unset>';
}

export function persistentVolumePrinter(brand: Brand): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Capacity', 'string', CORE_V1['PersistentVolumeSpec.capacity']),
      column('Access Modes', 'string', CORE_V1['PersistentVolumeSpec.accessModes']),
      column('Reclaim Policy', 'string', CORE_V1['PersistentVolumeSpec.persistentVolumeReclaimPolicy']),
      column('Status', 'string', CORE_V1['PersistentVolumeStatus.phase']),
      column('Claim', 'string', CORE_V1['PersistentVolumeSpec.claimRef']),
      column('StorageClass', 'string', 'StorageClass of the pv'),
      column('Reason', 'string', CORE_V1['PersistentVolumeStatus.reason']),
      AGE_COLUMN,
      wide('VolumeMode', 'string', CORE_V1['PersistentVolumeSpec.volumeMode']),
    ],
    rows: (pv, now) => [
      [
        nameOf(pv),
        quantityText(valueAt(pv, 'spec.capacity.storage')),
        accessModes(listAt(pv, 'spec.accessModes')),
        strAt(pv, 'spec.persistentVolumeReclaimPolicy'),
        phase(pv),
        isSetAt(pv, 'spec.claimRef') ? `${strAt(pv, 'spec.claimRef.namespace')}/${strAt(pv, 'spec.claimRef.name')}` : '',
        storageClass(pv, brand),
        strAt(pv, 'status.reason'),
        ageOf(pv, now),
        volumeMode(pv),
      ],
    ],
  };
}

export function persistentVolumeClaimPrinter(brand: Brand): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Status', 'string', CORE_V1['PersistentVolumeClaimStatus.phase']),
      column('Volume', 'string', CORE_V1['PersistentVolumeClaimSpec.volumeName']),
      column('Capacity', 'string', CORE_V1['PersistentVolumeClaimStatus.capacity']),
      column('Access Modes', 'string', CORE_V1['PersistentVolumeClaimStatus.accessModes']),
      column('StorageClass', 'string', 'StorageClass of the pvc'),
      AGE_COLUMN,
      wide('VolumeMode', 'string', CORE_V1['PersistentVolumeClaimSpec.volumeMode']),
    ],
    rows(pvc, now) {
      // Capacity and access modes show only once the claim is bound to a volume.
      const bound = strAt(pvc, 'spec.volumeName') !== '';
      return [
        [
          nameOf(pvc),
          phase(pvc),
          strAt(pvc, 'spec.volumeName'),
          bound ? quantityText(valueAt(pvc, 'status.capacity.storage')) : '',
          bound ? accessModes(listAt(pvc, 'status.accessModes')) : '',
          storageClass(pvc, brand),
          ageOf(pvc, now),
          volumeMode(pvc),
        ],
      ];
    },
  };
}
