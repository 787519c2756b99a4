/** ValidatingWebhookConfiguration: upstream's v1 defaults and validation. */
import { admissionregistration } from '../groups.js';
import { defaultWebhookConfiguration, validateWebhookConfiguration } from './webhook-validation.js';

export const validatingWebhookConfigurations = admissionregistration({
  kind: 'ValidatingWebhookConfiguration',
  plural: 'validatingwebhookconfigurations',
  categories: ['api-extensions'],
  namespaced: false,
  behaviour: { generation: true },
  strategy: {
    defaults: defaultWebhookConfiguration(false),
    validate: validateWebhookConfiguration(false),
  },
});
