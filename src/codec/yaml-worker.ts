/**
 * Worker-thread entry of yaml-pool.ts: decodes one YAML document per message and answers with
 * its JSON text (parsed back natively on the request thread), or encodes the UTF-8 bytes of one
 * JSON text as the YAML bytes a response carries; or answers the error's message.
 */
import { parentPort } from 'node:worker_threads';
import { decodeYaml, type YamlOptions } from './yaml-decode.js';
import { yamlOfJson } from './yaml-encode.js';

export type YamlRequest = { source: string; opts: YamlOptions } | { encode: Uint8Array };

export type YamlReply = { json: string } | { yaml: Uint8Array } | { error: string };

parentPort?.on('message', (req: YamlRequest) => {
  let reply: YamlReply;
  const transfer: ArrayBuffer[] = [];
  try {
    if ('encode' in req) {
      // Bytes both ways, the answer's moved rather than copied: the request thread then neither
      // rebuilds a string of megabytes from the message nor encodes it to UTF-8 itself.
      const yaml = new TextEncoder().encode(yamlOfJson(new TextDecoder().decode(req.encode)));
      reply = { yaml };
      transfer.push(yaml.buffer as ArrayBuffer);
    } else reply = { json: JSON.stringify(decodeYaml(req.source, req.opts)) ?? 'null' };
  } catch (e) {
    reply = { error: e instanceof Error ? e.message : String(e) };
  }
  parentPort?.postMessage(reply, transfer);
});
