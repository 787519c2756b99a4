/** The YAML of a response body, on the request thread (small values) or in yaml-worker.ts. */
import { stringify as toYaml } from 'yaml';

/** The YAML text of a JSON value. */
export function yamlOf(value: unknown): string {
  return toYaml(value);
}

/** The YAML text of the JSON value `json` (its JSON text, as sent to a worker). */
export function yamlOfJson(json: string): string {
  return yamlOf(JSON.parse(json));
}
