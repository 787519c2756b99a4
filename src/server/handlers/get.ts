/** GET of one object (or of a subresource that reads it): the scope's Getter. */
import { contentTypeOf, encodeBytes } from '../../codec/serialize.js';
import { encodeYamlOffThread } from '../../codec/yaml-pool.js';
import { entryObject } from '../../registry/cache-entry.js';
import { planGet } from '../../registry/read-options.js';
import type { ResourceRequest } from './resource-request.js';
import { getOptionsOf } from './options.js';
import { writeBody, writeObject } from '../http.js';

/** Answers 200 with the object per the Get table, or the Status of why not. */
export async function handleGet(r: ResourceRequest): Promise<void> {
  const { scope } = r;
  const getter = scope.capabilities.getter;
  if (getter === undefined) throw new Error(`${scope.info.plural} routed a get without a Getter`);
  const { pretty, protobufMediaType } = r.output;
  const encoding = scope.encodingFor(r.output.encodings);
  const found = getter.readEntry(r.namespace, r.name, planGet(getOptionsOf(r.query).resourceVersion));
  const entry = found instanceof Promise ? await found : found;
  if (r.output.as) {
    // Tables and their printers load on the first request for one, not at start-up.
    const { transformObject } = await import('./transform.js');
    return writeObject(r.res, 200, transformObject(r, r.output.as, entryObject(entry)), r.output);
  }
  // Compact JSON is what the cache holds already: no decode, no encode. YAML is written in a
  // worker from that JSON (the YAML library takes hundreds of milliseconds for a large object).
  const bytes =
    encoding === 'json' && !pretty
      ? entry.json
      : encoding === 'yaml'
        ? await encodeYamlOffThread(entry.json)
        : encodeBytes(entryObject(entry), encoding, pretty);
  writeBody(r.res, 200, contentTypeOf(encoding, protobufMediaType), bytes);
}
