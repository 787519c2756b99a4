import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_RESOURCES } from '../../api/catalogue.js';
import { schemasOf, upstreamGroup } from '../../api/schema/index.js';
import { goZeroFieldsFor } from '../../codec/protobuf/index.js';
import { typeOfKind } from './typed-schema.js';
import { validateTyped } from './typed/validate.js';
import { zeroObject } from './zero-object.js';

describe('zero objects', () => {
  it("a built-in kind's Go zero value is an object of its typed schema (a create is compared with it)", () => {
    let checked = 0;
    for (const def of ALL_RESOURCES) {
      const group = upstreamGroup(def.groupStem, def.branded);
      const fields = goZeroFieldsFor(group === '' ? def.version : `${group}/${def.version}`, def.kind);
      if (fields === undefined) continue;
      const type = typeOfKind(schemasOf(def), group, def.version, def.kind);
      const zero = fields.zero();
      assert.deepEqual(validateTyped(zero, type.atom), [], `${def.kind} ${def.version}`);
      checked++;
    }
    assert.ok(checked > 50, `${checked} kinds checked`);
  });

  it('without a Go type (custom resources), the zero follows the built-in convention by name', () => {
    const atom = typeOfKind(schemasOf(ALL_RESOURCES.find((d) => d.kind === 'Deployment')!), 'apps', 'v1', 'Deployment').atom;
    const zero = zeroObject('example.com/v1', 'Widget', atom) as Record<string, any>;
    assert.deepEqual(zero.metadata, { creationTimestamp: null });
    assert.equal(zero.apiVersion, 'example.com/v1');
  });
});
