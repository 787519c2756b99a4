import assert from 'node:assert/strict';
import { test } from 'node:test';
import { goIntOrString, goLabelSelector, goStringMap, goStringStruct } from './go-format.js';

test("Go's %#v of maps, selectors, IntOrString and string structs", () => {
  assert.equal(goStringMap({ b: '2', a: '1' }).text, 'map[string]string{"a":"1", "b":"2"}');
  assert.equal(goStringMap(undefined).text, 'map[string]string(nil)');
  assert.equal(goStringMap({}).text, 'map[string]string{}');
  assert.equal(
    goLabelSelector({ matchLabels: { app: 'x' } }).text,
    'v1.LabelSelector{MatchLabels:map[string]string{"app":"x"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}',
  );
  assert.equal(
    goLabelSelector({
      matchExpressions: [
        { key: 'k', operator: 'In', values: ['a'] },
        { key: 'e', operator: 'Exists' },
      ],
    }).text,
    'v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"k", Operator:"In", Values:[]string{"a"}}, v1.LabelSelectorRequirement{Key:"e", Operator:"Exists", Values:[]string(nil)}}}',
  );
  assert.equal(goIntOrString(5).text, 'intstr.IntOrString{Type:0, IntVal:5, StrVal:""}');
  assert.equal(
    goStringStruct('rbac.RoleRef', [
      ['APIGroup', 'g'],
      ['Kind', 'Role'],
      ['Name', 'n'],
    ]).text,
    'rbac.RoleRef{APIGroup:"g", Kind:"Role", Name:"n"}',
  );
});
