import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { finalizersForPropagation } from './deletion-propagation.js';

describe('finalizersForPropagation', () => {
  it('adds the finalizer a policy asks for, keeping the others', () => {
    assert.deepEqual(finalizersForPropagation(['example.com/x'], 'Orphan'), ['example.com/x', 'orphan']);
    assert.deepEqual(finalizersForPropagation([], 'Foreground'), ['foregroundDeletion']);
  });

  it('Background removes both collector finalizers', () => {
    assert.deepEqual(finalizersForPropagation(['orphan', 'example.com/x'], 'Background'), ['example.com/x']);
    assert.equal(finalizersForPropagation([], 'Background'), undefined);
  });

  it('a new policy replaces the other collector finalizer', () => {
    assert.deepEqual(finalizersForPropagation(['orphan'], 'Foreground'), ['foregroundDeletion']);
  });

  it('without a policy, what the object carries stays: no change', () => {
    assert.equal(finalizersForPropagation(['foregroundDeletion'], undefined), undefined);
    assert.equal(finalizersForPropagation(['example.com/x'], undefined), undefined);
    assert.equal(finalizersForPropagation(['orphan'], 'Orphan'), undefined);
  });

  it('a type that orphans by default does so when neither policy nor finalizer says otherwise', () => {
    assert.deepEqual(finalizersForPropagation([], undefined, true), ['orphan']);
    assert.equal(finalizersForPropagation(['foregroundDeletion'], undefined, true), undefined);
    assert.equal(finalizersForPropagation([], 'Background', true), undefined);
  });
});
