import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deal, hashFlowID, validDealer } from './shuffle-sharding.js';

test('a hand is handSize distinct queues of the deck, the same for the same flow', () => {
  for (const [deck, hand] of [
    [128, 6],
    [64, 8],
    [16, 4],
    [1, 1],
    [7, 7],
  ] as const) {
    for (const flow of ['alice', 'bob', 'system:serviceaccount:default:robot', '']) {
      const h = hashFlowID('global-default', flow);
      const cards = deal(h, deck, hand);
      assert.equal(cards.length, hand);
      assert.equal(new Set(cards).size, hand, `distinct: ${cards}`);
      assert.ok(cards.every((c) => Number.isInteger(c) && c >= 0 && c < deck));
      assert.deepEqual(deal(hashFlowID('global-default', flow), deck, hand), cards);
    }
  }
});

test("the dealer reads the hash as mixed-radix digits, as upstream's Deal does", () => {
  // 3 + 10×(2 + 9×1): remainders 3 (of 10), 2 (of 9), 1 (of 8); each is below the earlier ones, so none shifts.
  assert.deepEqual(deal(3n + 10n * (2n + 9n * 1n), 10, 3), [3, 2, 1]);
  // Remainders 0, 0, 0 become the first three cards: 0, then 1 (0 ≥ 0 shifts once), then 2.
  assert.deepEqual(deal(0n, 10, 3), [0, 1, 2]);
});

test('flows are spread: 1000 flows over 128 queues use most queues as their first card', () => {
  const first = new Set<number>();
  for (let i = 0; i < 1000; i++) first.add(deal(hashFlowID('fs', `user-${i}`), 128, 6)[0]);
  assert.ok(first.size > 100, `${first.size} queues`);
});

test("upstream's dealer bounds", () => {
  assert.ok(validDealer(128, 6));
  assert.ok(!validDealer(4, 5));
  assert.ok(!validDealer(64, 16));
  assert.ok(!validDealer(0, 1));
  // log2(2^20) × 4 = 80 bits > 60.
  assert.ok(!validDealer(2 ** 20, 4));
});
