/**
 * A lockfile for a temporary project that installs orch's packed tarball, built from orch's own
 * lockfile: `npm ci --offline` then takes every dependency from npm's cache by integrity, so the
 * package test installs exactly as a user would, without the network.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface LockEntry {
  version?: string;
  dev?: boolean;
  [field: string]: unknown;
}

/** What the consumer project depends on besides orch: the compiler and the optional client. */
// @types/ws: @kubernetes/client-node's declarations import 'ws' and do not depend on its types.
export const CONSUMER_DEV_DEPENDENCIES = ['typescript', '@types/node', '@types/ws', '@kubernetes/client-node'];

/** package.json and package-lock.json of a consumer depending on `file:<tarball>`. */
export function consumerProject(root: string, tarball: string): { manifest: object; lock: object } {
  const orchManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const orchLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  const devDependencies = Object.fromEntries(CONSUMER_DEV_DEPENDENCIES.map((name) => [name, orchManifest.devDependencies[name]]));
  const manifest = { name: 'orch-consumer', version: '1.0.0', type: 'module', private: true, dependencies: { orch: `file:${tarball}` }, devDependencies };
  const packages: Record<string, LockEntry> = {
    '': { name: 'orch-consumer', version: '1.0.0', dependencies: manifest.dependencies, devDependencies },
    'node_modules/orch': {
      version: orchManifest.version,
      resolved: `file:${tarball}`,
      license: orchManifest.license,
      dependencies: orchManifest.dependencies,
      peerDependencies: orchManifest.peerDependencies,
      peerDependenciesMeta: orchManifest.peerDependenciesMeta,
      bin: orchManifest.bin,
      engines: orchManifest.engines,
    },
  };
  for (const [path, entry] of Object.entries(orchLock.packages as Record<string, LockEntry>)) if (path !== '') packages[path] = entry;
  return { manifest, lock: { name: 'orch-consumer', version: '1.0.0', lockfileVersion: 3, requires: true, packages } };
}
