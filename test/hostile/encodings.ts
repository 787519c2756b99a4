/**
 * Odd encodings: invalid UTF-8 and lone surrogates inside strings (Go's decoder replaces them
 * with U+FFFD and goes on), byte-order marks and UTF-16 bodies, raw NUL and control bytes,
 * non-Latin-1 field names (stored nowhere, but warned about in a UTF-8 Warning header: never a
 * 500), and odd strings as names, label values and data keys (422 Invalid where validation
 * forbids them).
 */
import { configMap, JSON_TYPE, MERGE_TYPE, SMP_TYPE, YAML_TYPE } from './bodies.js';
import type { Family, HostileCase } from './hostile-case.js';
import type { Rng } from './prng.js';
import { ODD_STRINGS } from './values.js';
import { freshName, placeWrite } from './writes.js';

/** Byte sequences that are not valid UTF-8. */
const BAD_UTF8: readonly Buffer[] = [
  Buffer.from([0xff]),
  Buffer.from([0xc3, 0x28]),
  Buffer.from([0xc0, 0xaf]),
  Buffer.from([0xed, 0xa0, 0x80]),
  Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  Buffer.from([0xe2, 0x82]),
  Buffer.from([0x80, 0x80, 0x80]),
];

const NON_LATIN1_NAMES = ['名前', 'имя', 'ключ', '🔑', 'ñ\u0301', 'Ω', '\u202Ekey', 'k\u00e9y'];

/** The JSON text of obj with raw bytes put inside the string value that holds `marker`. */
function withBytes(text: string, marker: string, bytes: Buffer): Buffer {
  const i = text.indexOf(marker);
  return Buffer.concat([Buffer.from(text.slice(0, i)), bytes, Buffer.from(text.slice(i + marker.length))]);
}

export const encodings: Family = {
  name: 'encodings',
  owner: 'decoding and response headers (prototype-key / Warning header helper)',
  weight: 8,
  generate(rng: Rng, ctx): HostileCase {
    const kind = rng.pick(['bad-utf8', 'bom', 'utf16', 'nul', 'surrogate', 'field-name', 'odd-string'] as const);
    const family = 'encodings';
    const name = freshName(rng);
    const base = configMap(name, ctx.ns);
    const creates = `${ctx.cms}/${name}`;
    switch (kind) {
      case 'bad-utf8': {
        const where = rng.pick(['data', 'label', 'key'] as const);
        const obj =
          where === 'data'
            ? { ...base, data: { a: 'x\u0001y' } }
            : where === 'label'
              ? { ...base, metadata: { name, namespace: ctx.ns, labels: { app: 'x\u0001y' } } }
              : { ...base, data: { 'x\u0001y': 'v' } };
        const text = JSON.stringify(obj);
        const body = withBytes(text, '\\u0001', rng.pick(BAD_UTF8));
        return {
          family,
          variant: `invalid UTF-8 in a ${where}`,
          method: 'POST',
          path: ctx.cms,
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body,
          expect: where === 'data' ? 'any' : 'refuse',
          creates,
        };
      }
      case 'bom': {
        const type = rng.pick([JSON_TYPE, YAML_TYPE, MERGE_TYPE]);
        const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(type === MERGE_TYPE ? { data: { c: '3' } } : base))]);
        return type === MERGE_TYPE
          ? {
              family,
              variant: 'UTF-8 BOM before a merge patch',
              method: 'PATCH',
              path: ctx.cm,
              headers: { 'content-type': type },
              body,
              expect: 'any',
              target: ctx.cm,
            }
          : {
              family,
              variant: `UTF-8 BOM before a ${type} create`,
              method: 'POST',
              path: ctx.cms,
              headers: { 'content-type': type },
              body,
              expect: 'any',
              creates,
            };
      }
      case 'utf16': {
        const text = JSON.stringify(base);
        const le = rng.chance(0.5);
        const units = Buffer.from(text, 'utf16le');
        if (!le) units.swap16();
        const body = Buffer.concat([Buffer.from(le ? [0xff, 0xfe] : [0xfe, 0xff]), units]);
        return {
          family,
          variant: `UTF-16${le ? 'LE' : 'BE'} body`,
          method: 'POST',
          path: ctx.cms,
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body,
          expect: 'any',
          creates,
        };
      }
      case 'nul': {
        const text = JSON.stringify(base);
        const at = rng.int(0, text.length);
        const body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0, rng.int(1, 31)]), Buffer.from(text.slice(at))]);
        return {
          family,
          variant: 'raw NUL and control bytes in the body',
          method: 'POST',
          path: ctx.cms,
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body,
          expect: 'refuse',
          creates,
        };
      }
      case 'surrogate': {
        const escaped = rng.pick(['\\ud800', '\\udfff', '\\ud83d\\u0041', '\\udc00\\ud800', '\\u0000']);
        const text = JSON.stringify({ ...base, data: { a: 'MARK' } }).replace('MARK', escaped);
        const verb = rng.pick(['create', 'merge', 'strategic'] as const);
        if (verb === 'create')
          return {
            family,
            variant: `escaped ${escaped} in a data value`,
            method: 'POST',
            path: ctx.cms,
            headers: { 'content-type': JSON_TYPE },
            body: text,
            expect: 'any',
            creates,
          };
        return {
          family,
          variant: `escaped ${escaped} in a ${verb} patch`,
          method: 'PATCH',
          path: ctx.cm,
          headers: { 'content-type': verb === 'merge' ? MERGE_TYPE : SMP_TYPE },
          body: `{"data":{"z":"${escaped}"}}`,
          expect: 'any',
          target: ctx.cm,
        };
      }
      case 'field-name': {
        // An unknown field named in another script: dropped with a (UTF-8) warning, 400 under Strict.
        const key = rng.pick(NON_LATIN1_NAMES);
        const w = placeWrite(rng, ctx, { fragment: rng.pick(['1', '"v"', '{"名":1}', '[]']), key, inMetadata: rng.chance(0.4) });
        return { ...w, family, variant: `${w.variant} non-Latin-1 field name`, expect: w.strictUnknown ? 'refuse' : 'any' };
      }
      case 'odd-string': {
        const s = rng.pick(ODD_STRINGS);
        const where = rng.pick(['label value', 'data key', 'annotation key', 'generateName', 'finalizer'] as const);
        const meta: Record<string, unknown> = { name, namespace: ctx.ns };
        let obj: Record<string, unknown> = { ...base, metadata: meta };
        if (where === 'label value') meta.labels = { app: s };
        if (where === 'annotation key') meta.annotations = { [s]: 'v' };
        if (where === 'finalizer') meta.finalizers = [s];
        if (where === 'data key') obj = { ...obj, data: { [s]: 'v' } };
        if (where === 'generateName') {
          delete meta.name;
          meta.generateName = s;
        }
        return {
          family,
          variant: `odd string as ${where}`,
          method: 'POST',
          path: ctx.cms,
          headers: { 'content-type': rng.pick([JSON_TYPE, YAML_TYPE]) },
          body: JSON.stringify(obj),
          expect: 'any',
          ...(where === 'generateName' ? {} : { creates }),
        };
      }
    }
  },
};
