/** MutatingWebhookConfiguration: upstream's v1 defaults and validation. */
import { admissionregistration } from '../groups.js';
import { defaultWebhookConfiguration, validateWebhookConfiguration } from './webhook-validation.js';

export const mutatingWebhookConfigurations = admissionregistration({
  kind: 'MutatingWebhookConfiguration',
  plural: 'mutatingwebhookconfigurations',
  categories: ['api-extensions'],
  namespaced: false,
  behaviour: { generation: true },
  strategy: {
    defaults: defaultWebhookConfiguration(true),
    validate: validateWebhookConfiguration(true),
  },
});
