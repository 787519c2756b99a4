/** Plugin registry: name -> factory. The runtime builds each configured plugin once per profile. */
import type { FrameworkHandle } from './handle.js';
import type { Plugin } from './interfaces.js';

/** Builds a plugin from its (already defaulted) args; throws on invalid args (a configuration error). */
export type PluginFactory = (args: unknown, handle: FrameworkHandle) => Plugin;

export type Registry = ReadonlyMap<string, PluginFactory>;

/** Merges registries; a name registered twice is a programming error. */
export function mergeRegistries(...registries: Registry[]): Registry {
  const out = new Map<string, PluginFactory>();
  for (const r of registries) {
    for (const [name, f] of r) {
      if (out.has(name)) throw new Error(`a plugin named ${name} already exists`);
      out.set(name, f);
    }
  }
  return out;
}
