/**
 * Protobuf bodies (`application/vnd.orch.protobuf`) from valid to garbage, hand-encoded so each
 * defect is exact: random bytes, truncated varints, lengths past the end or near 2^64, deeply
 * nested unknown fields and groups, out-of-range timestamps, envelopes naming other kinds or
 * encodings, prototype-named map keys. Malformed bytes are 400; nothing is a 500.
 */
import type { Expect, Family, HostileCase, LaneContext } from './hostile-case.js';
import { PROTOBUF_TYPE } from './bodies.js';
import type { Rng } from './prng.js';
import { PROTOTYPE_NAMES } from './values.js';
import { freshName } from './writes.js';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

/** The base-128 varint of a non-negative integer (bigint for the full uint64 range). */
export function varint(value: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Buffer.from(out);
}

const tag = (field: number, wire: number) => varint((field << 3) | wire);
const len = (field: number, bytes: Buffer) => Buffer.concat([tag(field, 2), varint(bytes.length), bytes]);
const str = (field: number, s: string | Buffer) => len(field, Buffer.isBuffer(s) ? s : Buffer.from(s));
const int = (field: number, v: number | bigint) => Buffer.concat([tag(field, 0), varint(v)]);
const mapEntry = (field: number, k: string | Buffer, v: string | Buffer) => len(field, Buffer.concat([str(1, k), str(2, v)]));

/** The runtime.Unknown envelope around a typed message. */
function envelope(raw: Buffer, kind = 'ConfigMap', apiVersion = 'v1', extra: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([MAGIC, len(1, Buffer.concat([str(1, apiVersion), str(2, kind)])), len(2, raw), extra]);
}

interface MetaParts {
  name: string;
  ns: string;
  labels?: [string | Buffer, string | Buffer][];
  creation?: [number | bigint, number | bigint];
  deletion?: [number | bigint, number | bigint];
  finalizers?: number;
  unknown?: Buffer;
}

/** ObjectMeta: name=1, namespace=3, creationTimestamp=8, deletionTimestamp=9, labels=11, finalizers=14. */
function objectMeta(m: MetaParts): Buffer {
  const parts: Buffer[] = [str(1, m.name), str(3, m.ns)];
  if (m.creation) parts.push(len(8, Buffer.concat([int(1, m.creation[0]), int(2, m.creation[1])])));
  if (m.deletion) parts.push(len(9, Buffer.concat([int(1, m.deletion[0]), int(2, m.deletion[1])])));
  for (const [k, v] of m.labels ?? [['app', 'hostile']]) parts.push(mapEntry(11, k, v));
  for (let i = 0; i < (m.finalizers ?? 0); i++) parts.push(str(14, `example.com/f${i}`));
  if (m.unknown) parts.push(m.unknown);
  return Buffer.concat(parts);
}

/** ConfigMap: metadata=1, data=2 (map), binaryData=3, immutable=4. */
function configMapMessage(m: MetaParts, data: [string | Buffer, string | Buffer][] = [['a', '1']], tail: Buffer = Buffer.alloc(0)): Buffer {
  return Buffer.concat([len(1, objectMeta(m)), ...data.map(([k, v]) => mapEntry(2, k, v)), tail]);
}

/** An unknown length-delimited field nested `depth` times (field 99 inside field 99...). */
function nestedUnknown(depth: number): Buffer {
  let b: Buffer = str(1, 'x');
  for (let i = 0; i < depth; i++) b = len(99, b);
  return b;
}

/** Unknown groups (wire types 3/4) nested `depth` deep; `balanced` false leaves them open. */
function nestedGroups(depth: number, balanced: boolean): Buffer {
  const start = tag(98, 3);
  const end = tag(98, 4);
  return Buffer.concat([...Array(depth).fill(start), ...(balanced ? Array(depth).fill(end) : [])]);
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

export const protobufFamily: Family = {
  name: 'protobuf',
  owner: 'protobuf codec (decode errors and value ranges)',
  weight: 10,
  generate(rng: Rng, ctx: LaneContext): HostileCase {
    const verb = rng.pick(['create', 'create', 'update'] as const);
    const name = verb === 'create' ? freshName(rng) : 'cm';
    const meta: MetaParts = { name, ns: ctx.ns };
    const kind = rng.pick([
      'valid',
      'random',
      'magic-random',
      'truncated-varint',
      'length-past-end',
      'huge-length',
      'nested-unknown',
      'groups',
      'timestamps',
      'envelope',
      'proto-keys',
      'bad-utf8',
      'many-finalizers',
      'truncated',
      'patch',
    ] as const);
    let body: Buffer;
    let expect: Expect = 'refuse';
    let variant: string = kind;
    let presentAfter: HostileCase['presentAfter'];
    switch (kind) {
      case 'valid':
        body = envelope(configMapMessage(meta));
        expect = 'accept';
        break;
      case 'random':
        body = rng.bytes(rng.int(0, 4096));
        break;
      case 'magic-random':
        body = Buffer.concat([MAGIC, rng.bytes(rng.int(0, 4096))]);
        expect = 'any';
        break;
      case 'truncated-varint':
        body = Buffer.concat([MAGIC, rng.pick([Buffer.from([0x0a, 0xff]), Buffer.from([0x12, 0x80, 0x80, 0x80]), Buffer.from([0x08, 0xff, 0xff, 0xff])])]);
        break;
      case 'length-past-end': {
        const raw = configMapMessage(meta);
        body = Buffer.concat([MAGIC, len(1, Buffer.concat([str(1, 'v1'), str(2, 'ConfigMap')])), tag(2, 2), varint(raw.length + rng.int(1, 100_000)), raw]);
        break;
      }
      case 'huge-length': {
        const n = rng.pick<number | bigint>([0xffffffff, 2 ** 53, INT64_MAX, (1n << 64n) - 1n, 0x7fffffff]);
        body = Buffer.concat([MAGIC, tag(2, 2), varint(n), rng.bytes(16)]);
        variant = `huge length ${n}`;
        break;
      }
      case 'nested-unknown': {
        const depth = rng.pick([10, 100, 1000, 50_000]);
        body = envelope(configMapMessage({ ...meta, unknown: nestedUnknown(depth) }));
        expect = depth > 1000 ? 'any' : 'accept';
        variant = `unknown field nested ${depth} deep`;
        break;
      }
      case 'groups': {
        const depth = rng.pick([10, 1000, 100_000]);
        const balanced = rng.chance(0.5);
        body = envelope(configMapMessage(meta, [['a', '1']], nestedGroups(depth, balanced)));
        expect = balanced ? 'any' : 'refuse';
        variant = `${balanced ? 'balanced' : 'unterminated'} groups ${depth} deep`;
        break;
      }
      case 'timestamps': {
        const seconds = rng.pick<number | bigint>([INT64_MAX, INT64_MIN, -62135596801, 253402300800, 0]);
        const nanos = rng.pick<number | bigint>([0, -1, 999_999_999, 1_000_000_000, 2 ** 31 - 1, -(2 ** 31)]);
        const which = rng.pick(['creation', 'deletion'] as const);
        body = envelope(configMapMessage({ ...meta, [which]: [seconds, nanos] }));
        expect = 'any';
        variant = `${which}Timestamp seconds=${seconds} nanos=${nanos}`;
        break;
      }
      case 'envelope': {
        const raw = configMapMessage(meta);
        const which = rng.pick(['gzip', 'json', 'secret', 'bogus', 'no-kind', 'trailing'] as const);
        body =
          which === 'gzip'
            ? envelope(raw, 'ConfigMap', 'v1', str(3, 'gzip'))
            : which === 'json'
              ? envelope(raw, 'ConfigMap', 'v1', str(4, 'application/json'))
              : which === 'secret'
                ? envelope(raw, 'Secret')
                : which === 'bogus'
                  ? envelope(raw, 'Bogus', 'bogus.example.com/v9')
                  : which === 'no-kind'
                    ? envelope(raw, '', '')
                    : Buffer.concat([envelope(raw), rng.bytes(8)]);
        expect = which === 'no-kind' ? 'any' : which === 'trailing' ? 'any' : 'refuse';
        variant = `envelope ${which}`;
        break;
      }
      case 'proto-keys': {
        const key = rng.pick(PROTOTYPE_NAMES);
        body = envelope(configMapMessage(meta, [[key, 'x']]));
        expect = verb === 'create' ? 'accept' : 'any';
        presentAfter = { at: ['data', key], value: 'x' };
        variant = `data key ${key}`;
        break;
      }
      case 'bad-utf8':
        body = envelope(configMapMessage(meta, [['a', Buffer.from([0x78, 0xff, 0xfe, 0xc3])]]));
        expect = 'any';
        variant = 'invalid UTF-8 in a data value';
        break;
      case 'many-finalizers': {
        const n = rng.pick([10, 10_000, 60_000]);
        body = envelope(configMapMessage({ ...meta, finalizers: n }));
        expect = 'any';
        variant = `${n} finalizers`;
        break;
      }
      case 'truncated': {
        const full = envelope(configMapMessage(meta));
        body = full.subarray(0, rng.int(0, full.length - 1));
        expect = 'any';
        variant = 'valid body cut short';
        break;
      }
      case 'patch':
        // Protobuf is not a patch type: 415 UnsupportedMediaType.
        return {
          family: 'protobuf',
          variant: 'protobuf as a patch',
          method: 'PATCH',
          path: ctx.cm,
          headers: { 'content-type': PROTOBUF_TYPE },
          body: envelope(configMapMessage({ ...meta, name: 'cm' })),
          expect: [415],
          target: ctx.cm,
        };
    }
    const headers = { 'content-type': PROTOBUF_TYPE, accept: rng.pick(['application/json', PROTOBUF_TYPE]) };
    if (verb === 'create')
      return {
        family: 'protobuf',
        variant: `create ${variant}`,
        method: 'POST',
        path: ctx.cms,
        headers,
        body,
        expect,
        creates: `${ctx.cms}/${name}`,
        presentAfter,
      };
    return {
      family: 'protobuf',
      variant: `update ${variant}`,
      method: 'PUT',
      path: ctx.cm,
      headers,
      body,
      expect: expect === 'accept' ? 'any' : expect,
      target: ctx.cm,
      presentAfter,
    };
  },
};
