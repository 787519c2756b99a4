/**
 * Removal of a set of fields from a value (structured-merge-diff's TypedValue.RemoveItems):
 * a member path goes with everything below it; a prefix is walked into. A list or map left
 * with nothing is dropped, as upstream's nil becomes an omitted field of the typed object.
 *
 * Whether a list or map is left with nothing is known only once its entries are done, so the
 * walk keeps its own stack of open lists and maps (rather than recursing) and can pause
 * between any two entries.
 */
import { setOwn } from '../../../machinery/own-property.js';
import { type Due, runAtOnce } from '../../../machinery/pace.js';
import { LARGE_MAP, PIECE } from '../../work.js';
import type { FieldSet } from '../field-set.js';
import type { Atom, ListAtom, MapAtom } from '../typed-schema.js';
import { isMap } from '../value.js';
import { fieldType, formOf, keyOf, listItemElement } from './atoms.js';

/** value without the paths of toRemove (undefined when nothing is left of a list or map). */
export function removeItems(value: unknown, toRemove: FieldSet, atom: Atom): unknown {
  return runAtOnce((due) => removeItemsSteps(value, toRemove, atom, due));
}

// An open list or map: its entries up to i are done, their results in out.
type Open =
  | { readonly list: ListAtom; readonly value: unknown[]; readonly remove: FieldSet; i: number; readonly out: unknown[]; readonly slot: string }
  | {
      readonly map: MapAtom;
      readonly value: Record<string, unknown>;
      readonly keys: string[];
      readonly remove: FieldSet;
      i: number;
      readonly out: Record<string, unknown>;
      any: boolean;
      readonly slot: string;
    };

/** removeItems, pausing between entries when due (machinery/pace.ts). */
export function* removeItemsSteps(value: unknown, toRemove: FieldSet, atom: Atom, due: Due): Generator<void, unknown, void> {
  const stack: Open[] = [];
  const count = { steps: 0 };
  let result = enter(value, toRemove, atom, '', stack, count);
  while (stack.length > 0) {
    if (++count.steps >= PIECE) {
      count.steps = 0;
      if (due()) yield;
    }
    const top = stack[stack.length - 1];
    if ('list' in top) {
      if (top.i >= top.value.length) {
        stack.pop();
        result = place(stack, top.slot, top.out.length > 0 ? top.out : undefined);
        continue;
      }
      const i = top.i++;
      const pe = listItemElement(top.list, i, top.value[i]);
      if (top.remove.members.has(pe.id)) continue;
      const below = top.remove.children.get(pe.id)?.set;
      const item = below !== undefined && !below.empty() ? enter(top.value[i], below, top.list.elementType.atom, '', stack, count) : top.value[i];
      if (item !== OPENED && item !== undefined) top.out.push(item);
      continue;
    }
    if (top.i >= top.keys.length) {
      stack.pop();
      result = place(stack, top.slot, top.any ? top.out : undefined);
      continue;
    }
    const key = top.keys[top.i++];
    const pe = keyOf(key);
    if (top.remove.members.has(pe.id)) continue;
    const below = top.remove.children.get(pe.id)?.set;
    const type = fieldType(top.map, key);
    const child = top.value[key];
    const kept = below !== undefined && !below.empty() && type !== undefined ? enter(child, below, type, key, stack, count) : child;
    if (kept === OPENED || kept === undefined) continue;
    setOwn(top.out, key, kept);
    top.any = true;
  }
  return result;
}

/** What enter returns for a list or map it opened: its result comes when it is done. */
const OPENED = Symbol('opened');

// The value as removeItems leaves it, or OPENED for a list or map now on the stack.
// Listing a large map's keys counts as that many steps (../../work.ts, Work.keys).
function enter(value: unknown, remove: FieldSet, atom: Atom, slot: string, stack: Open[], count: { steps: number }): unknown {
  const form = formOf(atom, value);
  if (form === undefined || form === 'scalar') return value;
  if (form === 'list') {
    const list = atom.list as ListAtom;
    if (!Array.isArray(value) || value.length === 0 || list.relationship === 'atomic') return undefined;
    stack.push({ list, value, remove, i: 0, out: [], slot });
    return OPENED;
  }
  const map = atom.map as MapAtom;
  if (!isMap(value) || map.relationship === 'atomic') return undefined;
  const keys = Object.keys(value);
  if (keys.length > LARGE_MAP) count.steps += keys.length;
  stack.push({ map, value, keys, remove, i: 0, out: {}, any: false, slot });
  return OPENED;
}

// Hands a finished list or map to the one it is in; the result of the whole walk at the root.
function place(stack: Open[], slot: string, done: unknown): unknown {
  const parent = stack[stack.length - 1];
  if (parent === undefined) return done;
  if (done === undefined) return undefined;
  if ('list' in parent) parent.out.push(done);
  else {
    setOwn(parent.out, slot, done);
    parent.any = true;
  }
  return undefined;
}
