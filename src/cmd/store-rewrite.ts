/**
 * After the embedded control plane writes its store directly (reset, a namespace purge), the
 * registry must look as if those writes came through it: its watch caches have seen them before
 * the caller's next request, and state it derived from the store once (the Service IP and port
 * allocations) is derived again.
 */
import type { Registry } from '../registry/registry.js';
import { ServiceStore } from '../registry/service/service-store.js';

/** Resolves once every watch cache reflects `revision` and the Service allocations are re-read. */
export async function registryCaughtUp(registry: Registry, revision: number): Promise<void> {
  const services = registry.byResource('', 'services');
  if (services instanceof ServiceStore) services.reseed();
  const waits = registry.resources.map((info) =>
    // A custom resource whose definition the rewrite removed may be going away meanwhile: its cache no longer matters.
    registry
      .lookup(info.group, info.version, info.plural)
      ?.waitForRevision(revision)
      .catch(() => {}),
  );
  await Promise.all(waits);
}
