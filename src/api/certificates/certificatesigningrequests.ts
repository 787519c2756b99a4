/** CertificateSigningRequest: upstream accepts any name that is a valid path segment. */
import { certificates } from '../groups.js';
import { text } from '../define.js';

export const certificateSigningRequests = certificates({
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  shortNames: ['csr'],
  namespaced: false,
  subresources: { status: true, approval: true },
  nameRule: 'path-segment',
  fieldSelectors: { 'spec.signerName': text('spec.signerName') },
});
