/**
 * Upstream's shuffle sharding (k8s.io/apiserver/pkg/util/shufflesharding) and flow hashing
 * (queueset hashFlowID): a flow's hash deals it a hand of distinct queues out of the deck, so two
 * flows rarely share their whole hand and a heavy flow cannot fill every queue another one may use.
 */
import { createHash } from 'node:crypto';

/** Upstream's bound on hand size (the dealer keeps its remainders in a 15-element array). */
export const MAX_HAND_SIZE = 15;

/** Upstream's hashFlowID: the first 8 bytes, little-endian, of sha256(schema name, NUL, distinguisher). */
export function hashFlowID(flowSchema: string, distinguisher: string): bigint {
  const sum = createHash('sha256').update(flowSchema).update('\0').update(distinguisher).digest();
  return sum.readBigUInt64LE(0);
}

/**
 * Upstream's Dealer.Deal: handSize distinct card indices in [0, deckSize), drawn from the hash
 * as mixed-radix digits (deckSize, deckSize-1, ...) and shifted past the cards already dealt.
 */
export function deal(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let value = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    remainders.push(Number(value % radix));
    value /= radix;
  }
  const hand: number[] = [];
  for (let i = 0; i < handSize; i++) {
    let card = remainders[i];
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]) card++;
    hand.push(card);
  }
  return hand;
}

/** Upstream's validation of a dealer's shape: 1 ≤ handSize ≤ min(deckSize, 15) and the hand's entropy fits 60 bits. */
export function validDealer(deckSize: number, handSize: number): boolean {
  if (deckSize <= 0 || handSize <= 0 || handSize > deckSize || handSize > MAX_HAND_SIZE) return false;
  // Upstream's RequiredEntropyBits: ceil(log2(deckSize) * handSize) ≤ 60.
  return Math.ceil(Math.log2(deckSize) * handSize) <= 60;
}
