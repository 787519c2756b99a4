/**
 * Response negotiation: the representations a client accepts, in its order. Whether the first
 * one can carry a given object (protobuf exists only for some kinds) is decided when encoding.
 */
import type { Brand } from '../machinery/brand.js';
import { notAcceptable } from '../machinery/status.js';
import type { MediaRange } from './accept.js';

export type Encoding = 'json' | 'yaml' | 'protobuf';

/** The meta kinds a response can be transformed into (`Accept: ...;as=Table;g=meta.k8s.io;v=v1`). */
export type AsKind = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface AsTarget {
  kind: AsKind;
  /** The meta group the client named (answered with the same name). */
  group: string;
  version: 'v1' | 'v1beta1';
}

export interface Negotiated {
  /** Acceptable encodings in the client's order. */
  encodings: Encoding[];
  /** The protobuf media type the client named (answered with the same name). */
  protobufMediaType: string;
  /** The transformation the client asked for first, when the endpoint can make it. */
  as?: AsTarget;
}

/**
 * The meta groups a transformation may name: the brand's, and Kubernetes' own, which kubectl
 * and client-go always send (as orch also accepts Kubernetes' protobuf media type).
 */
function metaGroups(brand: Brand): string[] {
  return [brand.metaGroup, 'meta.k8s.io'];
}

/** The text encoding of a range that can carry a transformed object (Tables are JSON or YAML). */
function textEncoding(m: MediaRange): Encoding | undefined {
  const full = `${m.type}/${m.subtype}`;
  if (full === 'application/json' || full === 'application/*' || full === '*/*') return 'json';
  if (full === 'application/yaml') return 'yaml';
  return undefined;
}

/**
 * Acceptable encodings in the client's order; 406 when none can be produced. `transforms` are
 * the meta kinds this endpoint can answer with (a list: Table, PartialObjectMetadataList; an
 * object or a watch: Table, PartialObjectMetadata); the first acceptable range decides whether
 * the response is transformed.
 */
export function negotiate(ranges: readonly MediaRange[], brand: Brand, transforms: readonly AsKind[] = []): Negotiated {
  const out: Encoding[] = [];
  let protobufMediaType = brand.protobufMediaType;
  const add = (e: Encoding) => {
    if (!out.includes(e)) out.push(e);
  };
  for (const m of ranges) {
    if (m.params.as !== undefined) {
      const { as, g, v } = m.params;
      const encoding = textEncoding(m);
      const acceptable =
        out.length === 0 &&
        encoding !== undefined &&
        (transforms as readonly string[]).includes(as) &&
        metaGroups(brand).includes(g) &&
        (v === 'v1' || v === 'v1beta1');
      if (acceptable) return { encodings: [encoding], protobufMediaType, as: { kind: as as AsKind, group: g, version: v } };
      continue;
    }
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
