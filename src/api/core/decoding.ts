/**
 * Values upstream rejects while decoding a request body (before defaults and validation): a
 * quantity that does not parse, a Secret's data that is not base64. Such a body is a 400
 * BadRequest "<Kind> in version "<v>" cannot be handled as a <Kind>: <why>", never a 422.
 * Defaulting code throws DecodeError (or a QuantityParseError); decodingDefaults turns either
 * into that Status, and canonicalises quantities as upstream's decoder does.
 */
import type { Obj } from '../../machinery/object.js';
import { parseQuantity, QUANTITY_FORMAT_ERROR, type Quantity, QuantityParseError, quantityString, roundUpQuantity } from '../../machinery/quantity.js';
import { badRequest } from '../../machinery/status.js';
import type { StrategyContext } from '../types.js';
import { isSet, type Rec } from '../../machinery/fields.js';

/** A body value upstream's decoder refuses; the message is the decoder's. */
export class DecodeError extends Error {}

/** Wraps a defaults function so decode failures become upstream's 400 for the object's kind. */
export function decodingDefaults(fn: (obj: Obj, ctx: StrategyContext) => void): (obj: Obj, ctx: StrategyContext) => void {
  return (obj, ctx) => {
    try {
      fn(obj, ctx);
    } catch (e) {
      if (!(e instanceof DecodeError) && !(e instanceof QuantityParseError)) throw e;
      const kind = String(obj.kind ?? '');
      const version = String(obj.apiVersion ?? '')
        .split('/')
        .pop();
      throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${e.message}`);
    }
  };
}

/** Parses a quantity as the JSON decoder does (a string, trimmed, or a number). */
function decodeQuantity(v: unknown): Quantity {
  if (typeof v === 'number') return parseQuantity(v);
  if (typeof v === 'string') return parseQuantity(v.trim());
  throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
}

/** Upstream's decode + SetDefaults_ResourceList: every value canonical, rounded up to milli units. */
export function canonicalResourceList(list: unknown): void {
  if (typeof list !== 'object' || list === null || Array.isArray(list)) return;
  const l = list as Rec;
  for (const [k, v] of Object.entries(l)) {
    if (!isSet(v)) continue;
    l[k] = quantityString(roundUpQuantity(decodeQuantity(v), -3));
  }
}

/** A single Quantity field (not a ResourceList): canonical, not rounded. */
export function canonicalQuantityField(obj: Rec, key: string): void {
  if (isSet(obj[key])) obj[key] = quantityString(decodeQuantity(obj[key]));
}

/** A stored quantity (canonical after defaults); absent or unparseable reads as zero. */
export function quantityOf(v: unknown): Quantity {
  try {
    return decodeQuantity(v);
  } catch {
    return parseQuantity('0');
  }
}
