/** Printers of the storage group, keyed by kind. */
import type { Brand } from '../machinery/brand.js';
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { STORAGE_V1 } from './descriptions.js';
import { boolAt, boolOrNilAt, isSetAt, listAt, strAt, stringMapAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** storageutil.IsDefaultAnnotation: the GA or beta is-default-class annotation says "true". */
function isDefaultClass(obj: Obj, brand: Brand): boolean {
  const annotations = stringMapAt(obj, 'metadata.annotations');
  return (
    annotations[`storageclass.${brand.labelDomain}/is-default-class`] === 'true' ||
    annotations[`storageclass.beta.${brand.labelDomain}/is-default-class`] === 'true'
  );
}

function storageClassPrinter(brand: Brand): TablePrinter {
  return {
    columns: [
      NAME_COLUMN,
      column('Provisioner', 'string', STORAGE_V1['StorageClass.provisioner']),
      column('ReclaimPolicy', 'string', STORAGE_V1['StorageClass.reclaimPolicy']),
      column('VolumeBindingMode', 'string', STORAGE_V1['StorageClass.volumeBindingMode']),
      column('AllowVolumeExpansion', 'string', STORAGE_V1['StorageClass.allowVolumeExpansion']),
      AGE_COLUMN,
    ],
    rows: (obj, now) => [
      [
        isDefaultClass(obj, brand) ? `${nameOf(obj)} (default)` : nameOf(obj),
        strAt(obj, 'provisioner'),
        isSetAt(obj, 'reclaimPolicy') ? strAt(obj, 'reclaimPolicy') : 'Delete',
        isSetAt(obj, 'volumeBindingMode') ? strAt(obj, 'volumeBindingMode') : 'Immediate',
        boolAt(obj, 'allowVolumeExpansion'),
        ageOf(obj, now),
      ],
    ],
  };
}

const volumeAttachmentPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('Attacher', 'string', STORAGE_V1['VolumeAttachmentSpec.attacher'], { format: 'name' }),
    column('PV', 'string', STORAGE_V1['VolumeAttachmentSource.persistentVolumeName']),
    column('Node', 'string', STORAGE_V1['VolumeAttachmentSpec.nodeName']),
    column('Attached', 'boolean', STORAGE_V1['VolumeAttachmentStatus.attached']),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      strAt(obj, 'spec.attacher'),
      strAt(obj, 'spec.source.persistentVolumeName'),
      strAt(obj, 'spec.nodeName'),
      boolAt(obj, 'status.attached'),
      ageOf(obj, now),
    ],
  ],
};

const csiNodePrinter: TablePrinter = {
  columns: [NAME_COLUMN, column('Drivers', 'integer', 'Drivers indicates the number of CSI drivers registered on the node'), AGE_COLUMN],
  rows: (obj, now) => [[nameOf(obj), listAt(obj, 'spec.drivers').length, ageOf(obj, now)]],
};

/** The token audiences, "<unset>" when tokenRequests is absent. */
function tokenRequests(obj: Obj): string {
  if (!isSetAt(obj, 'spec.tokenRequests')) return '<unset>';
  return listAt(obj, 'spec.tokenRequests')
    .map((t) => strAt(t, 'audience'))
    .join(',');
}

const csiDriverPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    column('AttachRequired', 'boolean', STORAGE_V1['CSIDriverSpec.attachRequired']),
    column('PodInfoOnMount', 'boolean', STORAGE_V1['CSIDriverSpec.podInfoOnMount']),
    column('StorageCapacity', 'boolean', STORAGE_V1['CSIDriverSpec.storageCapacity']),
    column('TokenRequests', 'string', STORAGE_V1['CSIDriverSpec.tokenRequests']),
    column('RequiresRepublish', 'boolean', STORAGE_V1['CSIDriverSpec.requiresRepublish']),
    column('Modes', 'string', STORAGE_V1['CSIDriverSpec.volumeLifecycleModes']),
    AGE_COLUMN,
  ],
  rows: (obj, now) => [
    [
      nameOf(obj),
      boolOrNilAt(obj, 'spec.attachRequired') ?? true,
      boolAt(obj, 'spec.podInfoOnMount'),
      boolAt(obj, 'spec.storageCapacity'),
      tokenRequests(obj),
      boolAt(obj, 'spec.requiresRepublish'),
      listAt(obj, 'spec.volumeLifecycleModes').map(String).join(',') || '<none>',
      ageOf(obj, now),
    ],
  ],
};

/** The storage group's printers by kind. */
export function storagePrinters(brand: Brand): Record<string, TablePrinter> {
  return {
    StorageClass: storageClassPrinter(brand),
    VolumeAttachment: volumeAttachmentPrinter,
    CSINode: csiNodePrinter,
    CSIDriver: csiDriverPrinter,
  };
}
