/**
 * Reading and writing a JSON object's keys as data, whatever their names: a key a client sent
 * (`constructor`, `toString`, `__proto__`) must never find an inherited member of
 * Object.prototype, and writing `__proto__` must add a key, never change the prototype.
 */

/** obj's own value at key; undefined when obj does not have key itself (inherited members are not keys). */
export function ownValue(obj: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets key on obj as an own data property; `__proto__` is stored as a key, the prototype stays. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  else obj[key] = value;
}
