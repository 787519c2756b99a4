/**
 * Worker-thread entry of yaml-pool.ts: decodes one YAML document per message and answers with
 * its JSON text (parsed back natively on the request thread), or encodes one JSON text as the
 * YAML a response carries; or answers the error's message.
 */
import { parentPort } from 'node:worker_threads';
import { decodeYaml, type YamlOptions } from './yaml-decode.js';
import { yamlOfJson } from './yaml-encode.js';

export type YamlRequest = { source: string; opts: YamlOptions } | { encode: string };

export type YamlReply = { json: string } | { yaml: string } | { error: string };

parentPort?.on('message', (req: YamlRequest) => {
  let reply: YamlReply;
  try {
    reply = 'encode' in req ? { yaml: yamlOfJson(req.encode) } : { json: JSON.stringify(decodeYaml(req.source, req.opts)) ?? 'null' };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply);
});
