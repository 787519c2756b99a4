/**
 * Writes a list response a batch at a time: items are encoded as they are written, the writer
 * waits for the socket to drain between batches and yields to the event loop every few
 * milliseconds, so a large list neither holds the loop nor is built in one buffer, and a client
 * that stops reading pins one batch, not the response. A client that goes away stops the
 * work. The bytes are those of encoding the whole list at once (JSON, pretty JSON, Protobuf,
 * Table, PartialObjectMetadataList); YAML is still encoded whole.
 */
import { createGzip } from 'node:zlib';
import type { Writable } from 'node:stream';
import type { AsTarget } from '../codec/negotiation.js';
import { canStreamProtobufList, jsonArrayObjectPieces, protobufListPieces } from '../codec/list-stream.js';
import { chooseEncoding, contentTypeOf } from '../codec/serialize.js';
import { encodeYamlOffThread } from '../codec/yaml-pool.js';
import { auditCaptureOf } from './audit/capture.js';
import type { Obj } from '../machinery/object.js';
import { entryObject } from '../registry/cache-entry.js';
import type { EntryList } from '../registry/list.js';
import { acceptsGzip, GZIP_THRESHOLD_BYTES, recordBodySize, writeBody, writeObject, type Request, type Response } from './http.js';
import type { ResourceRequest } from './handlers/resource-request.js';

/** The longest the writer runs before it lets other requests in. */
const SLICE_MS = 10;
/** Bytes gathered into one socket write. */
const BATCH_BYTES = 64 * 1024;

/** A list body as pieces (zero-length ones are yield points) and its length once known. */
interface Pieces {
  contentType: string;
  pieces: Generator<Buffer, void, undefined>;
  size: { bytes?: number };
}

/** Answers a list in the negotiated representation, streamed when it can be. */
export async function streamList(r: ResourceRequest, list: EntryList): Promise<void> {
  const body = r.output.as ? await metaListPieces(r, r.output.as, list) : objectListPieces(r, list);
  if (body === undefined) return writeWhole(r, list);
  await writePieces(r.res, body);
}

/** The list of objects itself: JSON from the cached bytes, pretty JSON, Protobuf; undefined for YAML. */
function objectListPieces(r: ResourceRequest, list: EntryList): Pieces | undefined {
  const { entries } = list;
  const encoding = chooseEncoding(r.output.encodings, list.apiVersion, list.kind);
  if (encoding === 'json' && !r.output.pretty) {
    // Each item's served JSON is cached: joined as they are, with no per-item encode.
    let bytes = 0;
    for (const e of entries) bytes += e.json.length;
    const pieces = endedAsGoEncodes(
      jsonArrayObjectPieces({
        head: { kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata },
        key: 'items',
        count: entries.length,
        elements: (i) => (entries[i] as EntryList['entries'][number]).json,
        emptyAs: '[]',
        pretty: false,
      }),
      false,
    );
    // `<head without "}">,"items":[` + items + commas + `]}` + newline.
    const headBytes = Buffer.byteLength(JSON.stringify({ kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata }));
    const size = { bytes: headBytes + 11 + bytes + Math.max(0, entries.length - 1) + 1 };
    return { contentType: contentTypeOf('json', ''), pieces, size };
  }
  const item = (i: number): Obj => entryObject(entries[i] as EntryList['entries'][number]);
  if (encoding === 'json') {
    const pieces = jsonArrayObjectPieces({
      // A typed list's Go struct order: TypeMeta (kind, apiVersion), ListMeta, items.
      head: { kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata },
      key: 'items',
      count: entries.length,
      elements: (i) => [item(i)],
      emptyAs: '[]',
      pretty: true,
    });
    return { contentType: contentTypeOf('json', ''), pieces, size: {} };
  }
  if (encoding === 'protobuf' && canStreamProtobufList(list.apiVersion, list.kind)) {
    const size: { bytes?: number } = {};
    const src = { apiVersion: list.apiVersion, kind: list.kind, metadata: list.metadata as Record<string, unknown>, count: entries.length, item };
    return { contentType: contentTypeOf('protobuf', r.output.protobufMediaType), pieces: protobufListPieces(src, size), size };
  }
  return undefined;
}

/** A Table or PartialObjectMetadataList of the list's objects, as JSON; undefined for other encodings. */
async function metaListPieces(r: ResourceRequest, as: AsTarget, list: EntryList): Promise<Pieces | undefined> {
  const apiVersion = `${as.group}/${as.version}`;
  const kind = as.kind === 'Table' ? 'Table' : 'PartialObjectMetadataList';
  // Tables and their printers load on the first request for one, not at start-up. The options
  // are read first: a bad includeObject is a 400 before any 406, as when the Table was built whole.
  const table = as.kind === 'Table' ? (await import('./handlers/transform.js')).tableOptionsFor(r, as, list.metadata) : undefined;
  if (chooseEncoding(r.output.encodings, apiVersion, kind) !== 'json') return undefined;
  const { entries } = list;
  const pretty = r.output.pretty;
  const contentType = contentTypeOf('json', '');
  if (table === undefined) {
    const { toPartialObjectMetadata } = await import('../printers/index.js');
    const pieces = endedAsGoEncodes(
      jsonArrayObjectPieces({
        head: { kind, apiVersion, metadata: list.metadata },
        key: 'items',
        count: entries.length,
        elements: (i) => [toPartialObjectMetadata(entryObject(entries[i] as EntryList['entries'][number]), apiVersion)],
        emptyAs: '[]',
        pretty,
      }),
      pretty,
    );
    return { contentType, pieces, size: {} };
  }
  const { tableHead, tableRows } = await import('../printers/index.js');
  const { printer, options } = table;
  // A printer that orders its rows needs every object first (only small kinds have one).
  const sorted = printer.sortList?.(entries.map(entryObject));
  const object = (i: number): Obj => (sorted ? (sorted[i] as Obj) : entryObject(entries[i] as EntryList['entries'][number]));
  const pieces = endedAsGoEncodes(
    jsonArrayObjectPieces({
      head: tableHead(printer, options),
      key: 'rows',
      count: entries.length,
      elements: (i) => tableRows(printer, object(i), options),
      emptyAs: printer.nullRowsWhenEmpty ? 'null' : '[]',
      pretty,
    }),
    pretty,
  );
  return { contentType, pieces, size: {} };
}

const NEWLINE = Buffer.from('\n');

/**
 * Compact JSON pieces followed by the newline Go's json.Encoder writes after a value, as
 * upstream's serializer ends a body (pretty pieces already end with one).
 */
function* endedAsGoEncodes(pieces: Generator<Buffer, void, undefined>, pretty: boolean): Generator<Buffer, void, undefined> {
  yield* pieces;
  if (!pretty) yield NEWLINE;
}

/**
 * The representations not streamed: YAML, encoded from the list's JSON in a worker thread
 * (codec/yaml-pool.ts; the YAML library takes seconds for a list of large objects), and
 * Protobuf of kinds that cannot stream, encoded whole.
 */
async function writeWhole(r: ResourceRequest, list: EntryList): Promise<void> {
  const value = async (): Promise<Record<string, unknown>> => {
    if (!r.output.as) return { kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata, items: list.entries.map(entryObject) };
    const { transformList } = await import('./handlers/transform.js');
    return transformList(r, r.output.as, list.entries.map(entryObject), list.metadata) as Record<string, unknown>;
  };
  const apiVersion = r.output.as ? `${r.output.as.group}/${r.output.as.version}` : list.apiVersion;
  const kind = r.output.as ? (r.output.as.kind === 'Table' ? 'Table' : 'PartialObjectMetadataList') : list.kind;
  if (chooseEncoding(r.output.encodings, apiVersion, kind) !== 'yaml') return writeObject(r.res, 200, await value(), r.output);
  // The list's JSON: joined from the cached item bytes when they are the items, else encoded.
  const json = r.output.as ? Buffer.from(JSON.stringify(await value())) : compactListJson(list);
  const capture = auditCaptureOf(r.res);
  if (capture !== undefined) capture.responseObject(JSON.parse(json.toString('utf8')));
  // Written in slices with backpressure (and gzipped as it goes): tens of megabytes written
  // (or gzipped) at once would hold the loop for as long as that takes.
  await writePieces(r.res, bytePieces(contentTypeOf('yaml', ''), await encodeYamlOffThread(json, true)));
}

/** A complete body as pieces for writePieces. */
function bytePieces(contentType: string, bytes: Buffer): Pieces {
  function* slices(): Generator<Buffer, void, undefined> {
    for (let at = 0; at < bytes.length; at += BATCH_BYTES) yield bytes.subarray(at, at + BATCH_BYTES);
  }
  return { contentType, pieces: slices(), size: { bytes: bytes.length } };
}

/** The compact JSON of a list of cached objects, from their cached bytes. */
function compactListJson(list: EntryList): Buffer {
  const pieces = jsonArrayObjectPieces({
    head: { kind: list.kind, apiVersion: list.apiVersion, metadata: list.metadata },
    key: 'items',
    count: list.entries.length,
    elements: (i) => (list.entries[i] as EntryList['entries'][number]).json,
    emptyAs: '[]',
    pretty: false,
  });
  return Buffer.concat([...pieces]);
}

/**
 * Writes the pieces with backpressure. The first GZIP_THRESHOLD_BYTES are gathered before the
 * head is written, so a small body goes out whole with its Content-Length (as writeBody), and a
 * larger one is gzipped when the client accepts it. An encoding error before that point
 * throws (the caller answers a Status); after it, the response is cut, never ended as if whole.
 */
export async function writePieces(res: Response, body: Pieces): Promise<void> {
  const { pieces } = body;
  let closed = false;
  let wake: (() => void) | undefined;
  const onClose = () => {
    closed = true;
    wake?.();
  };
  res.once('close', onClose);
  let sliceStart = performance.now();
  const yieldIfDue = async () => {
    if (performance.now() - sliceStart < SLICE_MS) return;
    await new Promise((resolve) => setImmediate(resolve));
    sliceStart = performance.now();
  };
  try {
    const first: Buffer[] = [];
    let firstBytes = 0;
    for (;;) {
      const next = pieces.next();
      if (next.done) {
        writeBody(res, 200, body.contentType, Buffer.concat(first, firstBytes));
        return;
      }
      if (next.value.length > 0) {
        first.push(next.value);
        firstBytes += next.value.length;
        if (firstBytes >= GZIP_THRESHOLD_BYTES) break;
      }
      await yieldIfDue();
      if (closed) return;
    }

    const gzip = acceptsGzip((res as { req?: Request }).req);
    const headers: Record<string, string | number> = { 'content-type': body.contentType };
    if (gzip) Object.assign(headers, { 'content-encoding': 'gzip', vary: 'Accept-Encoding' });
    else if (body.size.bytes !== undefined) headers['content-length'] = body.size.bytes;
    res.writeHead(200, headers);
    let out = res as unknown as Writable;
    if (gzip) {
      const zip = createGzip();
      zip.on('error', () => res.destroy());
      zip.pipe(res as unknown as Writable);
      res.once('close', () => zip.destroy());
      out = zip;
    }
    let written = 0;
    const write = async (chunk: Buffer) => {
      written += chunk.length;
      if (out.write(chunk) || closed) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        out.once('drain', resolve);
      });
      wake = undefined;
    };
    try {
      let batch: Buffer[] = first;
      let batchBytes = firstBytes;
      for (;;) {
        const next = pieces.next();
        if (next.done || batchBytes >= BATCH_BYTES) {
          if (batchBytes > 0) await write(Buffer.concat(batch, batchBytes));
          batch = [];
          batchBytes = 0;
        }
        if (closed) return;
        if (next.done) break;
        if (next.value.length > 0) {
          batch.push(next.value);
          batchBytes += next.value.length;
        }
        await yieldIfDue();
        if (closed) return;
      }
      out.end();
      recordBodySize(res, written);
    } catch (err) {
      // Headers are out: a Status cannot follow, and ending would pass a cut body off as whole.
      console.error('list response failed after its head was written:', err);
      res.destroy();
    }
  } finally {
    res.removeListener('close', onClose);
    // Frees what the encoders hold (e.g. kept Protobuf items) when the client left early.
    pieces.return();
  }
}
