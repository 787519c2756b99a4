/**
 * Our type schemas against @kubernetes/client-node's generated models (upstream's OpenAPI
 * of a later release): every field a model has must be in our schema with the same JSON type,
 * so a missing or misspelled field is caught. Fields upstream added after the release orch
 * serves are listed by name.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { apiSchemas, refName, type Schema } from '../src/api/schema/index.js';
import { ALL_RESOURCES } from '../src/api/catalogue.js';

/** Fields client-node 1.4 (Kubernetes 1.34) has that the served release does not. */
const NEWER_UPSTREAM = new Set([
  // HPA scaling tolerance: 1.33.
  'io.k8s.api.autoscaling.v2.HPAScalingRules.tolerance',
  'io.k8s.api.core.v1.Container.restartPolicyRules',
  'io.k8s.api.core.v1.EphemeralContainer.restartPolicyRules',
  'io.k8s.api.core.v1.EnvVarSource.fileKeyRef',
  'io.k8s.api.core.v1.PodSpec.hostnameOverride',
  'io.k8s.api.core.v1.PodStatus.extendedResourceClaimStatus',
  'io.k8s.api.core.v1.VolumeProjection.podCertificate',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinitionVersion.selectableFields',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule.fieldPath',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule.messageExpression',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule.optionalOldSelf',
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.ValidationRule.reason',
]);

interface Attribute {
  baseName: string;
  type: string;
  format: string;
}
type Model = { attributeTypeMap?: Attribute[] };

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** client-node's model of a definition: `V1PodSpec`, or `<Group>V1<Kind>` where kinds collide. */
function modelOf(name: string): Model | undefined {
  const parts = name.split('.');
  const kind = parts.at(-1) as string;
  const version = parts.at(-2) as string;
  let group = parts.at(-3) as string;
  if (name.startsWith('io.k8s.apiextensions-apiserver')) group = 'apiextensions';
  if (name.startsWith('io.k8s.kube-aggregator')) group = 'apiregistration';
  const models = k8s as unknown as Record<string, Model | undefined>;
  return [`${cap(group)}${cap(version)}${kind}`, `${cap(version)}${kind}`].map((c) => models[c]).find((m) => m?.attributeTypeMap !== undefined);
}

/** The client-node type string our schema corresponds to. */
function expectedType(s: Schema): string {
  const lookup = apiSchemas();
  if (s.$ref !== undefined) {
    const target = lookup.definition(refName(s.$ref)) as Schema;
    if (target.format === 'int-or-string') return 'IntOrString';
    if (target.format === 'date-time') return 'Date';
    if (target.properties === undefined) return target.type === 'string' ? 'string' : 'any';
    return 'model';
  }
  if (s.type === 'array') return `Array<${expectedType(s.items as Schema)}>`;
  if (s.type === 'object') return s.additionalProperties ? `{ [key: string]: ${expectedType(s.additionalProperties)}; }` : 'any';
  if (s.type === 'integer' || s.type === 'number') return 'number';
  return s.type ?? 'any';
}

/** client-node's type string with model class names reduced to `model`. */
function normalise(type: string): string {
  return type
    .replace('V1MicroTime', 'Date')
    .replace(/\b(?:[A-Z][a-z]*)?V\d+(?:(?:alpha|beta)\d+)?[A-Z]\w*/g, 'model')
    .replace('RuntimeRawExtension', 'any');
}

describe('schemas agree with @kubernetes/client-node', () => {
  const lookup = apiSchemas();
  const reachable = new Set<string>();
  const visit = (s: Schema | undefined) => {
    if (!s) return;
    if (s.$ref !== undefined) {
      const name = refName(s.$ref);
      if (reachable.has(name)) return;
      reachable.add(name);
      visit(lookup.definition(name));
      return;
    }
    for (const p of Object.values(s.properties ?? {})) visit(p);
    visit(s.items);
    visit(s.additionalProperties);
  };

  it('every served kind has a schema', () => {
    for (const def of ALL_RESOURCES) {
      const group = def.branded ? `${def.groupStem}.k8s.io` : def.groupStem;
      const name = lookup.nameOfKind(group, def.version, def.kind);
      assert.ok(name, `no schema for ${group}/${def.version} ${def.kind}`);
      visit({ $ref: `#/definitions/${name}` });
    }
    assert.ok(reachable.size > 300, `only ${reachable.size} definitions reachable`);
  });

  it("every model field is in our schema with the model's JSON type", () => {
    const problems: string[] = [];
    let compared = 0;
    for (const name of reachable) {
      const def = lookup.definition(name) as Schema;
      const model = modelOf(name);
      if (!model || def.properties === undefined) continue;
      for (const attr of model.attributeTypeMap ?? []) {
        const key = `${name}.${attr.baseName}`;
        const prop = def.properties[attr.baseName];
        if (prop === undefined) {
          if (!NEWER_UPSTREAM.has(key)) problems.push(`missing ${key}`);
          continue;
        }
        compared++;
        const want = normalise(attr.type);
        const have = expectedType(prop);
        if (want !== have) problems.push(`${key}: client-node ${attr.type}, ours ${have}`);
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(compared > 1500, `only ${compared} fields compared`);
  });
});
