/**
 * The two webhook admission plugins of a server, over its registry: configurations from the
 * watch caches, namespace labels from the namespaces cache, services and endpoints for the
 * service form of clientConfig, one bounded caller shared by both.
 */
import type { Brand } from '../../machinery/brand.js';
import type { Registry } from '../../registry/registry.js';
import type { ReadPlan } from '../../registry/read-options.js';
import type { MutatingPlugin, ValidatingPlugin } from '../admission.js';
import { WebhookCaller } from './caller.js';
import { hookSource } from './configurations.js';
import { mutatingWebhooks, validatingWebhooks, type WebhookEnvironment } from './dispatcher.js';

export interface WebhookAdmission {
  mutating: MutatingPlugin;
  validating: ValidatingPlugin;
  stop(): void;
}

/** The cache as it is: webhook dispatch never waits for the store. */
const CACHED: ReadPlan = { kind: 'any' };

export function webhookAdmission(registry: Registry, brand: Brand): WebhookAdmission {
  const group = brand.group('admissionregistration', true);
  const mutatingSource = hookSource(registry, group, 'mutatingwebhookconfigurations');
  const validatingSource = hookSource(registry, group, 'validatingwebhookconfigurations');
  const caller = new WebhookCaller();
  const read = async (resource: string, namespace: string, name: string) => {
    const store = registry.byResource('', resource);
    if (store === undefined) return undefined;
    try {
      return await store.readEntry(namespace, name, CACHED);
    } catch {
      return undefined;
    }
  };
  const env: WebhookEnvironment = {
    caller,
    admissionGroup: brand.group('admission', true),
    served: (g, resource) => registry.resources.filter((r) => r.group === g && r.plural === resource).map((r) => r.version),
    resourceAt: (g, resource, version) => registry.resources.find((r) => r.group === g && r.plural === resource && r.version === version),
    namespaceLabels: async (namespace) => (await read('namespaces', '', namespace))?.labels ?? undefined,
    lookup: async (resource, namespace, name) => {
      const entry = await read(resource, namespace, name);
      return entry === undefined ? undefined : (JSON.parse(entry.json.toString('utf8')) as Record<string, unknown>);
    },
  };
  return {
    mutating: mutatingWebhooks(() => mutatingSource.hooks(), env),
    validating: validatingWebhooks(() => validatingSource.hooks(), env),
    stop() {
      mutatingSource.stop();
      validatingSource.stop();
      caller.close();
    },
  };
}
