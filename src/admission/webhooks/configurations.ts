/**
 * The webhooks currently configured, followed through the registry's watch caches: any event
 * of a configuration resource marks the list stale, and the next request rebuilds it from the
 * cache (sorted by configuration name, as upstream's webhook source orders them). A request
 * thus sees a configuration as soon as its write has reached the cache.
 */
import type { Registry } from '../../registry/registry.js';
import { hooksOf, type Hook } from './hook.js';

export interface HookSource {
  hooks(): readonly Hook[];
  stop(): void;
}

export function hookSource(registry: Registry, group: string, resource: string): HookSource {
  const cache = registry.byResource(group, resource)?.cache;
  let current: readonly Hook[] | undefined;
  const stale = (): void => {
    current = undefined;
  };
  const stops =
    cache === undefined
      ? []
      : [
          cache.listen(() => {
            stale();
            return true;
          }),
          cache.onRelist(stale),
        ];
  return {
    hooks() {
      if (current === undefined) {
        const configs = (cache?.list() ?? []).map((e) => JSON.parse(e.json.toString('utf8')) as Record<string, unknown>);
        const name = (c: Record<string, unknown>): string => String((c.metadata as { name?: unknown } | undefined)?.name ?? '');
        configs.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
        current = configs.flatMap(hooksOf);
      }
      return current;
    },
    stop() {
      for (const s of stops) s();
    },
  };
}
