/** ValidatingWebhookConfiguration. */
import { admissionregistration } from '../groups.js';

export const validatingWebhookConfigurations = admissionregistration({
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  categories: ['api-extensions'],
  namespaced: false,
  behaviour: { generation: true },
});
