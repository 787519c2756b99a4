/** MutatingWebhookConfiguration. */
import { admissionregistration } from '../groups.js';

export const mutatingWebhookConfigurations = admissionregistration({
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  categories: ['api-extensions'],
  namespaced: false,
  behaviour: { generation: true },
});
