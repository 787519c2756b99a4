/**
 * The cluster of a test file (or suite): started before its tests and closed after them, used
 * through a `call` that sends a JSON body and headers as the admin.
 */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import type { ControlPlaneOptions } from '../../src/cmd/control-plane.js';
import { request, startTestCluster, type RawResponse, type TestCluster } from './cluster.js';

/** The content type of a JSON merge patch, as headers for `call`. */
export const MERGE = { 'content-type': 'application/merge-patch+json' };

/** A request to the cluster: a JSON body (objects are serialized) and extra headers. */
export type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<RawResponse>;

/** Registers the cluster's start (and the namespace's creation, when given) and its close; returns its `call`. */
export function clusterClient(opts: ControlPlaneOptions = {}, namespace?: string): Call {
  let cluster: TestCluster | undefined;
  const call: Call = (method, path, body, headers) => {
    assert.ok(cluster, 'the cluster starts in a before hook');
    return request(cluster, method, path, { body: body as object | undefined, headers });
  };
  before(async () => {
    cluster = await startTestCluster(opts);
    if (namespace === undefined) return;
    const created = await call('POST', '/api/v1/namespaces', { metadata: { name: namespace } });
    assert.equal(created.status, 201, created.text);
  });
  after(async () => {
    await cluster?.close();
  });
  return call;
}
