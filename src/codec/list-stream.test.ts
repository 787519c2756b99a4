// Streamed list bodies are the very bytes of encoding the whole list at once: JSON (compact and
// pretty, with pre-encoded or encoded elements, empty arrays as [] or null) and Protobuf (items
// kept between passes or encoded again), whatever the list's size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonArrayObjectPieces, protobufListPieces } from './list-stream.js';
import { encodeProtobufObject } from './protobuf/index.js';

type Obj = Record<string, unknown>;

const join = (pieces: Iterable<Buffer>): Buffer => Buffer.concat([...pieces]);

function configMap(i: number): Obj {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: `cm-${i}`,
      namespace: 'default',
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(100 + i),
      creationTimestamp: '2024-01-01T00:00:00Z',
      labels: { app: 'web', n: String(i % 3) },
      annotations: { note: 'línea\nnueva "quoted" 名前' },
    },
    data: { payload: 'x'.repeat(i % 50), empty: '' },
    ...(i % 4 === 0 ? { binaryData: { b: 'AAEC' } } : {}),
  };
}

const items = (n: number) => Array.from({ length: n }, (_, i) => configMap(i));
const listMeta = { resourceVersion: '12345', continue: 'abc', remainingItemCount: 7 };

describe('jsonArrayObjectPieces', () => {
  for (const n of [0, 1, 2, 57]) {
    it(`compact, ${n} pre-encoded items: the bytes of JSON.stringify`, () => {
      const list = items(n);
      const head = { kind: 'ConfigMapList', apiVersion: 'v1', metadata: listMeta };
      const got = join(
        jsonArrayObjectPieces({ head, key: 'items', count: n, elements: (i) => Buffer.from(JSON.stringify(list[i])), emptyAs: '[]', pretty: false }),
      );
      assert.equal(got.toString('utf8'), JSON.stringify({ ...head, items: list }));
    });

    it(`pretty, ${n} items: the bytes of JSON.stringify(value, null, 2) and a newline`, () => {
      const list = items(n);
      const head = { apiVersion: 'v1', kind: 'ConfigMapList', metadata: listMeta };
      const got = join(jsonArrayObjectPieces({ head, key: 'items', count: n, elements: (i) => [list[i]], emptyAs: '[]', pretty: true }));
      assert.equal(got.toString('utf8'), `${JSON.stringify({ ...head, items: list }, null, 2)}\n`);
    });
  }

  it('items giving several elements or none, and an empty array written as null (compact and pretty)', () => {
    const rowsOf = (i: number) => Array.from({ length: i % 3 }, (_, k) => ({ cells: [i, k, null, 'a'], object: { nested: [[], {}, [1]] } }));
    const head = { kind: 'Table', apiVersion: 'meta/v1', metadata: {}, columnDefinitions: null };
    for (const pretty of [false, true]) {
      const all = Array.from({ length: 10 }, (_, i) => rowsOf(i)).flat();
      const want = (rows: unknown) => (pretty ? `${JSON.stringify({ ...head, rows }, null, 2)}\n` : JSON.stringify({ ...head, rows }));
      const got = join(jsonArrayObjectPieces({ head, key: 'rows', count: 10, elements: rowsOf, emptyAs: 'null', pretty }));
      assert.equal(got.toString('utf8'), want(all));
      const none = join(jsonArrayObjectPieces({ head, key: 'rows', count: 3, elements: () => [], emptyAs: 'null', pretty }));
      assert.equal(none.toString('utf8'), want(null));
      const noneAsArray = join(jsonArrayObjectPieces({ head, key: 'rows', count: 0, elements: () => [], emptyAs: '[]', pretty }));
      assert.equal(noneAsArray.toString('utf8'), want([]));
    }
  });

  it('yields a piece per element, so a writer can stop or pause between them', () => {
    const gen = jsonArrayObjectPieces({ head: { a: 1 }, key: 'items', count: 1000, elements: (i) => [{ i }], emptyAs: '[]', pretty: false });
    let pieces = 0;
    for (const _ of gen) if (++pieces === 10) break;
    assert.equal(pieces, 10);
  });
});

describe('protobufListPieces', () => {
  const whole = (list: Obj[], metadata: Obj) => Buffer.from(encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMapList', metadata, items: list }));

  for (const n of [0, 1, 300]) {
    for (const keep of [undefined, 0, 2000]) {
      it(`${n} items, ${keep === undefined ? 'all kept' : `${keep} bytes kept`} between passes: the bytes of encodeProtobufObject`, () => {
        const list = items(n);
        const size: { bytes?: number } = {};
        let asked = 0;
        const src = {
          apiVersion: 'v1',
          kind: 'ConfigMapList',
          metadata: listMeta,
          count: n,
          item: (i: number) => {
            asked++;
            return list[i] as Obj;
          },
          keepEncodedBytes: keep,
        };
        const got = join(protobufListPieces(src, size));
        const want = whole(list, listMeta);
        assert.ok(got.equals(want), `${got.length} bytes vs ${want.length}`);
        assert.equal(size.bytes, want.length);
        // Items are encoded once while they fit the budget, twice past it.
        if (keep === undefined) assert.equal(asked, n);
        if (keep === 0) assert.equal(asked, 2 * n);
      });
    }
  }

  it('a list longer than 127 and 16,383 bytes per item (multi-byte lengths) is still exact', () => {
    const list = [configMap(1), { ...configMap(2), data: { big: 'y'.repeat(20_000) } }];
    const got = join(protobufListPieces({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, count: 2, item: (i) => list[i] as Obj, keepEncodedBytes: 0 }));
    assert.ok(got.equals(whole(list, {})));
  });

  it('throws what the whole-list encoder throws, before producing any byte', () => {
    const bad = { ...configMap(1), data: { a: 5 } };
    assert.throws(() => encodeProtobufObject({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, items: [bad] }));
    const gen = protobufListPieces({ apiVersion: 'v1', kind: 'ConfigMapList', metadata: {}, count: 2, item: (i) => (i === 0 ? configMap(0) : bad) });
    let bytes = 0;
    assert.throws(() => {
      for (const piece of gen) bytes += piece.length;
    });
    assert.equal(bytes, 0);
  });
});
