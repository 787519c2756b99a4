/**
 * Go's base64.StdEncoding.DecodeString, which upstream's JSON decoder uses for []byte fields
 * (Secret data, ConfigMap binaryData): padding required, CR and LF ignored, and its exact
 * "illegal base64 data at input byte N" error for anything else.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(256).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
const PAD = 0x3d;
const CR = 0x0d;
const LF = 0x0a;

/** Go's CorruptInputError. */
export class Base64Error extends Error {
  constructor(readonly offset: number) {
    super(`illegal base64 data at input byte ${offset}`);
  }
}

/** Decodes as Go does; throws Base64Error at the byte offset Go reports. */
export function decodeGoBase64(text: string): Buffer {
  const src = Buffer.from(text, 'utf8');
  const out: number[] = [];
  let si = 0;
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let trailing: number | undefined;
    let j = 0;
    for (; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        throw new Base64Error(si - j);
      }
      const c = src[si++];
      const v = DECODE[c];
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (c === LF || c === CR) {
        j--;
        continue;
      }
      if (c !== PAD || j < 2) throw new Base64Error(si - 1);
      if (j === 2) {
        // "==" is expected; the first "=" is consumed.
        while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
        if (si === src.length) throw new Base64Error(src.length);
        if (src[si] !== PAD) throw new Base64Error(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === LF || src[si] === CR)) si++;
      if (si < src.length) trailing = si;
      dlen = j;
      break;
    }
    const val = (dbuf[0] << 18) | (dbuf[1] << 12) | (dbuf[2] << 6) | dbuf[3];
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    out.push(...bytes.slice(0, dlen - 1));
    if (trailing !== undefined) throw new Base64Error(trailing);
    if (dlen < 4) return Buffer.from(out);
  }
}
