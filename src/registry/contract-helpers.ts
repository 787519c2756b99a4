/** Shared pieces of the registry contract suite: the per-test store, fixtures and Status assertions. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Obj } from '../machinery/object.js';
import { StatusError, qualifiedResource } from '../machinery/status.js';
import { type MakeStore, Subject } from './contract-adapter.js';

/** What the suite needs to know of a resource kind beyond its definition. */
export interface Fixture {
  /** A valid object of the kind, named `name`, without a namespace (the suite sets it). */
  valid(name: string): Obj;
  /** Changes obj's spec validly (to check metadata.generation on kinds that count it). */
  changeSpec?(obj: Obj): void;
  /** A status the status subresource accepts (kinds with a status subresource). */
  status?: Record<string, unknown>;
  /**
   * For kinds whose strategy holds finalizers of its own (namespaces): the `finalize` body that
   * clears them, given the stored object. Such kinds are only marked by a first delete.
   */
  finalize?(stored: Obj): Obj;
}

export type SubjectTest = (title: string, fn: (s: Subject, fx: Fixture) => Promise<void>) => void;

/** A test runner giving each test a fresh, empty store. */
export function subjectTest(makeStore: MakeStore, fixture: Fixture): SubjectTest {
  return (title, fn) =>
    it(title, async () => {
      const { store, cleanup } = await makeStore();
      try {
        await fn(new Subject(store), fixture);
      } finally {
        await cleanup();
      }
    });
}

/** The object a fixture makes, with labels merged in. */
export function sample(fx: Fixture, name: string, labels?: Record<string, string>): Obj {
  const obj = fx.valid(name);
  if (labels !== undefined) {
    const meta = (obj.metadata ??= {}) as Record<string, unknown>;
    meta.labels = { ...(meta.labels as object | undefined), ...labels };
  }
  return obj;
}

/** `pods` or `clusterroles.rbac.orch.io`, as messages name the resource. */
export function qualified(s: Subject): string {
  return qualifiedResource(s.info.groupResource);
}

/** `Pod` or `ClusterRole.rbac.orch.io`, as Invalid messages name the kind. */
export function qualifiedKind(s: Subject): string {
  return s.info.group === '' ? s.info.kind : `${s.info.kind}.${s.info.group}`;
}

/** Asserts p rejects with a StatusError of this code and reason (and message, when given). */
export async function rejectsWithStatus(p: Promise<unknown>, code: number, reason: string, message?: string | RegExp): Promise<StatusError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof StatusError, `expected a ${code} ${reason} StatusError, got ${caught === undefined ? 'success' : String(caught)}`);
  assert.equal(caught.code, code, caught.message);
  assert.equal(caught.reason, reason, caught.message);
  if (typeof message === 'string') assert.equal(caught.message, message);
  else if (message !== undefined) assert.match(caught.message, message);
  return caught;
}

export function metaOfObj(obj: Obj): Record<string, any> {
  return (obj.metadata ?? {}) as Record<string, any>;
}

export function rvOf(obj: Obj): string {
  return String(metaOfObj(obj).resourceVersion ?? '');
}

/** Deletes an object completely, running the kind's own finalize step when it has one. */
export async function removeCompletely(s: Subject, fx: Fixture, ns: string, name: string): Promise<void> {
  const res = await s.delete(ns, name);
  if (res.removed) return;
  assert.ok(fx.finalize, `${s.info.plural}: delete only marked ${name}, and the fixture has no finalize step`);
  await s.update(ns, name, fx.finalize(res.obj), { subresource: 'finalize' });
}
