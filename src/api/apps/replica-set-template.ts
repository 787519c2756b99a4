/**
 * The pod template of a ReplicaSet or Deployment as upstream's ValidatePodTemplateSpecForReplicaSet
 * checks it (Deployments use the same function, so their messages also say "ReplicaSet").
 */
import type { LabelSelector } from '../../machinery/label-selector.js';
import { goLabelSelector } from '../../machinery/go-format.js';
import { type FieldError, invalid } from '../../machinery/status.js';
import { type Rec, rec } from '../../machinery/fields.js';
import { validateWorkloadPodTemplate } from './pod-template.js';
import { alwaysRestartErrors, compileSelector, templateSelectorErrors } from './workload-validation.js';

/** The selector-dependent template checks of a replica-managing spec (`spec.template` under fldPath). */
export function replicaSetTemplateErrors(spec: Rec, selector: LabelSelector | undefined, fldPath: string): FieldError[] {
  const matcher = compileSelector(selector);
  if (matcher === undefined) return [invalid(`${fldPath}.selector`, goLabelSelector(spec.selector), 'invalid label selector')];
  const template = rec(spec.template);
  const templatePath = `${fldPath}.template`;
  return [
    ...templateSelectorErrors(matcher, template, templatePath),
    ...validateWorkloadPodTemplate(template, templatePath),
    ...alwaysRestartErrors(template, templatePath, 'ReplicaSet'),
  ];
}
