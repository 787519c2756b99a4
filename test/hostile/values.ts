/**
 * Hostile values shared by the families: names JavaScript objects inherit, odd strings, numbers
 * that overflow or are not numbers at all.
 */

/** Every name an object literal inherits, plus a few Function/Array ones lookups also hit. */
export const PROTOTYPE_NAMES: readonly string[] = [
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
  'length',
  'name',
  'call',
  'apply',
  'bind',
  'then',
  'toJSON',
];

/** Strings no field expects: control characters, lone surrogates, BOMs, RTL, very long. */
export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '名前',
  'ñandú',
  '\u202Eevil',
  '\r\n',
  '../..',
  '%00',
  '$patch',
  '$retainKeys',
  '{"a":1}',
  'null',
  'true',
  '9'.repeat(400),
  'a'.repeat(64),
  'a'.repeat(254),
];

/** Query values of numeric parameters that do not parse as upstream's int64. */
export const BAD_NUMBERS: readonly string[] = [
  'abc',
  '1.5',
  '1e3',
  '0x10',
  '--1',
  '9223372036854775808',
  '99999999999999999999',
  ' 1',
  '1 ',
  'NaN',
  'Infinity',
  '+',
];

/** Query values of numeric parameters that parse but are out of the useful range. */
export const EDGE_NUMBERS: readonly string[] = ['0', '-1', '-9223372036854775808', '9223372036854775807', '2147483648', '00001', '-0'];
