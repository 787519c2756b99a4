/** The profile the benchmark runs: upstream's default, minus plugins not registered yet. */
import { defaultPlugins } from '../../src/scheduler/config/defaults.js';
import type { KubeSchedulerConfiguration, PluginSet } from '../../src/scheduler/config/types.js';
import { EXTENSION_POINTS } from '../../src/scheduler/framework/interfaces.js';
import type { Registry } from '../../src/scheduler/framework/registry.js';

/**
 * The default profile when every default plugin is registered; otherwise the default profile
 * restricted to the registered plugins, and the names of the missing ones.
 */
export function benchProfile(registry: Registry): { config: KubeSchedulerConfiguration | undefined; missing: string[] } {
  const defaults = defaultPlugins();
  const missing = new Set<string>();
  const plugins: Partial<Record<(typeof EXTENSION_POINTS)[number], PluginSet>> = {};
  for (const ep of EXTENSION_POINTS) {
    const enabled = defaults[ep].filter((e) => {
      if (registry.has(e.name)) return true;
      missing.add(e.name);
      return false;
    });
    plugins[ep] = { disabled: [{ name: '*' }], enabled };
  }
  if (missing.size === 0) return { config: undefined, missing: [] };
  return { config: { profiles: [{ schedulerName: 'default-scheduler', plugins }] }, missing: [...missing].sort() };
}
