import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateFlowControlLimits } from './setup.js';

test("APF needs seats to share out: upstream's error when both in-flight limits are 0", () => {
  assert.throws(
    () => validateFlowControlLimits({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 0 }),
    /^Error: invalid configuration: MaxRequestsInFlight=0 and MaxMutatingRequestsInFlight=0; they must add up to something positive$/,
  );
  validateFlowControlLimits({ maxRequestsInflight: 0, maxMutatingRequestsInflight: 1 });
});
