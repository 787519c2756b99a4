/**
 * Helpers shared by the store contract suites (contract*.ts): a per-test store, byte/text
 * conversion, error matching and a watch recorder that can be awaited.
 */

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { type Store, StoreError, type StoreErrorCode, type StoreEvent } from './interface.js';
import type { StoreLimits } from './limits.js';

/** A fresh, empty store (enforcing limits when given) and how to dispose of it. */
export type MakeStore = (limits?: StoreLimits) => Promise<{ store: Store; cleanup(): Promise<void> }>;

/** Registers a test that gets a fresh store, cleaned up whether the test passes or not. */
export type StoreTest = (title: string, body: (store: Store) => Promise<void>) => void;

/** Builds the StoreTest for one backend (its stores enforcing limits when given). */
export function storeTest(makeStore: MakeStore, limits?: StoreLimits): StoreTest {
  return (title, body) =>
    it(title, async () => {
      const { store, cleanup } = await makeStore(limits);
      try {
        await body(store);
      } finally {
        await cleanup();
      }
    });
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** UTF-8 bytes of s. */
export const bytes = (s: string): Uint8Array => encoder.encode(s);

/** The text of a value (undefined stays undefined). */
export const text = (v: Uint8Array | undefined): string | undefined => (v === undefined ? undefined : decoder.decode(v));

/** Asserts p rejects with a StoreError of this code, and returns that error. */
export async function rejectsWith(p: Promise<unknown>, code: StoreErrorCode): Promise<StoreError> {
  let caught: unknown;
  await assert.rejects(p, (err: unknown) => {
    caught = err;
    return err instanceof StoreError && err.code === code;
  });
  return caught as StoreError;
}

/** A watch that records its batches; wait() resolves once enough events (or an error) arrived. */
export interface Recorder {
  batches: StoreEvent[][];
  events: StoreEvent[];
  errors: StoreError[];
  cancel(): void;
  /** Resolves when at least n events have arrived; rejects after timeoutMs. */
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  /** Resolves when onError has been called; rejects after timeoutMs. */
  waitForError(timeoutMs?: number): Promise<StoreError>;
}

/** Starts a watch on store and records what it delivers. */
export function record(store: Store, prefix: string, fromRevision: number): Recorder {
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const w of waiters) w();
  };
  const rec: Recorder = {
    batches: [],
    events: [],
    errors: [],
    cancel: () => {},
    waitFor: (n, timeoutMs = 3000) => until(() => rec.events.length >= n, `${n} events (have ${rec.events.length})`, timeoutMs),
    waitForError: async (timeoutMs = 3000) => {
      await until(() => rec.errors.length > 0, 'a watch error', timeoutMs);
      return rec.errors[0];
    },
  };
  function until(done: () => boolean, what: string, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}`));
      }, timeoutMs);
      waiters.add(check);
    });
  }
  rec.cancel = store.watch(
    prefix,
    fromRevision,
    (events) => {
      rec.batches.push(events);
      rec.events.push(...events);
      wake();
    },
    (err) => {
      rec.errors.push(err);
      wake();
    },
  );
  return rec;
}

/** Lets pending timers, immediates and I/O run (watch replay and group commit use setImmediate). */
export function settle(turns = 3): Promise<void> {
  let p = Promise.resolve();
  for (let i = 0; i < turns; i++) p = p.then(() => new Promise<void>((r) => setImmediate(r)));
  return p;
}

/** A short summary of an event, for readable deep-equal assertions. */
export function brief(e: StoreEvent): string {
  const prev = e.prevKv ? ` prev=${text(e.prevKv.value)}@${e.prevKv.modRevision}` : '';
  return `${e.revision} ${e.type} ${e.kv.key}=${text(e.kv.value)}@${e.kv.modRevision}/c${e.kv.createRevision}${prev}`;
}
