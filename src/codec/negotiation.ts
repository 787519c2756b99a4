/**
 * Response negotiation: the representations a client accepts, in its order. Whether the first
 * one can carry a given object (protobuf exists only for some kinds) is decided when encoding.
 */
import type { Brand } from '../machinery/brand.js';
import { notAcceptable } from '../machinery/status.js';
import type { MediaRange } from './accept.js';

export type Encoding = 'json' | 'yaml' | 'protobuf';

export interface Negotiated {
  /** Acceptable encodings in the client's order. */
  encodings: Encoding[];
  /** The protobuf media type the client named (answered with the same name). */
  protobufMediaType: string;
}

/** Acceptable encodings in the client's order; 406 when none can be produced. */
export function negotiate(ranges: readonly MediaRange[], brand: Brand): Negotiated {
  const out: Encoding[] = [];
  let protobufMediaType = brand.protobufMediaType;
  const add = (e: Encoding) => {
    if (!out.includes(e)) out.push(e);
  };
  for (const m of ranges) {
    if (m.params.as !== undefined) continue; // Table / PartialObjectMetadata are not served yet
    const full = `${m.type}/${m.subtype}`;
    if (full === 'application/json' || full === 'application/*' || full === '*/*') add('json');
    else if (full === 'application/yaml') add('yaml');
    else if (brand.protobufMediaTypes.includes(full) && !out.includes('protobuf')) {
      add('protobuf');
      protobufMediaType = full;
    }
  }
  if (out.length === 0) throw notAcceptable(['application/json', 'application/yaml', brand.protobufMediaType]);
  return { encodings: out, protobufMediaType };
}
