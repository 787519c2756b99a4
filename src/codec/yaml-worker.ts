/**
 * Worker-thread entry of yaml-pool.ts: decodes one YAML document per message and answers with
 * its JSON text (parsed back natively on the request thread) or the decode error's message.
 */
import { parentPort } from 'node:worker_threads';
import { decodeYaml, type YamlOptions } from './yaml-decode.js';

export interface YamlRequest {
  source: string;
  opts: YamlOptions;
}

export type YamlReply = { json: string } | { error: string };

parentPort?.on('message', ({ source, opts }: YamlRequest) => {
  let reply: YamlReply;
  try {
    reply = { json: JSON.stringify(decodeYaml(source, opts)) ?? 'null' };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply);
});
