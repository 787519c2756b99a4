/** Printers of the certificates group, keyed by kind. */
import type { Obj } from '../machinery/object.js';
import { AGE_COLUMN, NAME_COLUMN, column } from './columns.js';
import { CERTIFICATES_V1BETA1 } from './descriptions.js';
import { humanDuration } from './duration.js';
import { listAt, numOrNilAt, strAt } from '../machinery/fields.js';
import { ageOf, nameOf } from './format.js';
import type { TablePrinter } from './types.js';

/** extractCSRStatus: Denied, else Approved, else Pending; then ",Failed" and ",Issued". */
function csrCondition(csr: Obj): string {
  const types = new Set(listAt(csr, 'status.conditions').map((c) => strAt(c, 'type')));
  let status = types.has('Denied') ? 'Denied' : types.has('Approved') ? 'Approved' : 'Pending';
  if (types.has('Failed')) status += ',Failed';
  if (strAt(csr, 'status.certificate') !== '') status += ',Issued';
  return status;
}

const certificateSigningRequestPrinter: TablePrinter = {
  columns: [
    NAME_COLUMN,
    AGE_COLUMN,
    column('SignerName', 'string', CERTIFICATES_V1BETA1['CertificateSigningRequestSpec.signerName']),
    column('Requestor', 'string', CERTIFICATES_V1BETA1['CertificateSigningRequestSpec.request']),
    column('RequestedDuration', 'string', CERTIFICATES_V1BETA1['CertificateSigningRequestSpec.expirationSeconds']),
    column('Condition', 'string', CERTIFICATES_V1BETA1['CertificateSigningRequestStatus.conditions']),
  ],
  rows(csr, now) {
    const seconds = numOrNilAt(csr, 'spec.expirationSeconds');
    return [
      [
        nameOf(csr),
        ageOf(csr, now),
        strAt(csr, 'spec.signerName') || '<none>',
        strAt(csr, 'spec.username'),
        seconds === undefined ? '<none>' : humanDuration(seconds * 1000),
        csrCondition(csr),
      ],
    ];
  },
};

/** The certificates group's printers by kind. */
export function certificatesPrinters(): Record<string, TablePrinter> {
  return { CertificateSigningRequest: certificateSigningRequestPrinter };
}
