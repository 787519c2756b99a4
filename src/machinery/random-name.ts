/**
 * Names for objects created with metadata.generateName, as upstream's
 * apiserver/pkg/storage/names SimpleNameGenerator.
 */

/** Upstream's utilrand alphabet: no vowels (no accidental words) and no 0/1/3 (look like o/l/e). */
export const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
export const MAX_NAME_LENGTH = 63;
export const RANDOM_LENGTH = 5;
export const MAX_GENERATED_NAME_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

/**
 * base (cut to 58 characters) plus 5 random characters from NAME_ALPHABET, so the result is
 * at most 63 long; random returns [0, 1) like Math.random and is injectable for tests.
 */
export function generateName(base: string, random: () => number = Math.random): string {
  let name = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  for (let i = 0; i < RANDOM_LENGTH; i++) {
    // Clamp so a source returning exactly 1 (or more) still yields a valid character.
    const idx = Math.min(NAME_ALPHABET.length - 1, Math.max(0, Math.floor(random() * NAME_ALPHABET.length)));
    name += NAME_ALPHABET[idx];
  }
  return name;
}
