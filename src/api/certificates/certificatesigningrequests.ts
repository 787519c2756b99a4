/** CertificateSigningRequest: upstream accepts any name that is a valid path segment. */
import { certificates } from '../groups.js';
import { text } from '../define.js';
import { certificateSigningRequestStrategy } from './csr-strategy.js';

export const certificateSigningRequests = certificates({
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  shortNames: ['csr'],
  namespaced: false,
  subresources: { status: true, approval: true },
  nameRule: 'path-segment',
  strategy: certificateSigningRequestStrategy,
  fieldSelectors: { 'spec.signerName': text('spec.signerName') },
});
