/**
 * The fields upstream's apiserver writes for a built-in object although nobody set them: it
 * decodes every object into its Go type and encodes it back, and Go's encoder writes value
 * structs even with omitempty (a Service's `status: {loadBalancer: {}}`, a zero Time as
 * `creationTimestamp: null`) and fields without omitempty even when zero. Which fields those are
 * is what the Protobuf messages' `(json_shape)` options say (proto/README.md): this reuses their
 * JSON plans rather than keeping a second copy of the types.
 */
import type protobuf from 'protobufjs';
import type { Obj } from '../../machinery/object.js';
import { protobufMessageToJson, withGoZeroFields } from './json-shape.js';
import { isProtobufSupported, protobufTypeFor } from './registry.js';

/** A built-in kind's always-written fields. */
export interface GoZeroFields {
  /** Adds the absent always-written fields to obj (in place, recursively; added keys go last); returns obj. */
  fill(obj: Obj): Obj;
  /** The Go zero value of the kind as JSON (with apiVersion and kind): a new object each call. */
  zero(): Obj;
}

/**
 * The always-written fields of apiVersion/kind, or undefined for a kind with no Go type behind
 * it (custom resources, kinds with no message). Loads no .proto file until first used.
 */
export function goZeroFieldsFor(apiVersion: string, kind: string): GoZeroFields | undefined {
  if (!isProtobufSupported(apiVersion, kind)) return undefined;
  let type: protobuf.Type | undefined;
  const typeOf = (): protobuf.Type => (type ??= protobufTypeFor(apiVersion, kind));
  return {
    fill: (obj) => withGoZeroFields(typeOf(), obj),
    zero: () => ({ apiVersion, kind, ...protobufMessageToJson(typeOf(), {}) }),
  };
}
