/** PodTemplate: its template is defaulted and validated as a pod's (upstream's ValidatePodTemplate). */
import { core } from '../groups.js';
import { decodingDefaults } from './decoding.js';
import { child, rec } from '../../machinery/fields.js';
import { defaultPodTemplateSpec } from './pod-defaults.js';
import { validatePodTemplateSpec } from './pod-validation.js';

export const podTemplates = core({
  kind: 'PodTemplate',
  plural: 'podtemplates',
  namespaced: true,
  strategy: {
    defaults: decodingDefaults((obj) => defaultPodTemplateSpec(child(obj, 'template'))),
    validate: (obj) => validatePodTemplateSpec(rec(obj.template), 'template'),
    validateUpdate: (obj) => validatePodTemplateSpec(rec(obj.template), 'template'),
  },
});
