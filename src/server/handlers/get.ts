/** GET of one object (or its status subresource, which is the same object). */
import { chooseEncoding, contentTypeOf, encodeBytes } from '../../codec/serialize.js';
import type { ResourceRequest } from './resource-request.js';

/** Answers 200 with the object, or the Status of why not. */
export async function handleGet(r: ResourceRequest): Promise<void> {
  const { info } = r.store;
  const { pretty, protobufMediaType } = r.output;
  const encoding = chooseEncoding(r.output.encodings, info.apiVersion, info.kind);
  // Memoized per object version and representation: a repeated GET of an unchanged object
  // costs one point read.
  const format = pretty ? `${encoding}+pretty` : encoding;
  const bytes = await r.store.getEncoded(r.namespace, r.name, format, (obj) => encodeBytes(obj, encoding, pretty));
  r.res.writeHead(200, { 'content-type': contentTypeOf(encoding, protobufMediaType), 'content-length': bytes.length });
  r.res.end(bytes);
}
