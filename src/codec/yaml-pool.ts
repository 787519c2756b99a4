/**
 * YAML off the request thread. The YAML library takes tens of microseconds per node (a 3 MiB
 * body: seconds), far past what one request may hold the event loop for, so bodies are decoded,
 * and large YAML responses (a list of every ConfigMap) encoded, in worker threads: at most two,
 * one document each at a time, each bounded in time and memory. A worker past its time is
 * ended (and replaced on demand); the request is refused. Tiny documents, which cost less than
 * the round trip, are handled in place.
 */
import { Worker } from 'node:worker_threads';
import { parseJson } from '../machinery/json-parse-steps.js';
import type { Pace } from '../machinery/pace.js';
import { decodeYaml, YamlDecodeError, type YamlOptions } from './yaml-decode.js';
import { yamlOfJson } from './yaml-encode.js';
import type { YamlReply, YamlRequest } from './yaml-worker.js';

/** Below this many characters a document decodes in well under a millisecond, in place. */
const INLINE_MAX_CHARS = 512;
const MAX_WORKERS = 2;
/** No bounded document takes this long; a worker that does is stuck in some library path. */
const DECODE_TIMEOUT_MS = 10_000;
/** A response is bounded by the request's own timeout (upstream's default --request-timeout). */
const ENCODE_TIMEOUT_MS = 60_000;
/** Below this many characters of JSON a response encodes in about a millisecond, in place. */
const INLINE_ENCODE_MAX_CHARS = 16 * 1024;
/** An idle worker is ended after this long, giving its memory back. */
const IDLE_MS = 30_000;

interface Job {
  request: YamlRequest;
  /** Buffers moved to the worker with the request (the caller gives them up). */
  transfer: ArrayBuffer[];
  timeoutMs: number;
  resolve: (reply: YamlReply) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

const queue: Job[] = [];
const idle: Slot[] = [];
let workers = 0;

function spawn(): Slot {
  const worker = new Worker(new URL('./yaml-worker.js', import.meta.url), {
    // The library composes recursively: a thread stack of its own lets it reach the depth limit.
    resourceLimits: { maxOldGenerationSizeMb: 512, stackSizeMb: 16 },
  });
  workers++;
  const slot: Slot = { worker };
  worker.on('message', (reply: YamlReply) => {
    const job = finish(slot);
    idle.push(slot);
    slot.timer = setTimeout(() => retire(slot, new YamlDecodeError('yaml: decoder stopped')), IDLE_MS);
    slot.timer.unref();
    dispatch();
    if (job === undefined) return;
    if ('error' in reply) job.reject(new YamlDecodeError(reply.error));
    else job.resolve(reply);
  });
  // Out of memory or any crash of the thread: the document could not be decoded.
  worker.on('error', () => retire(slot, new YamlDecodeError('yaml: document too large to decode')));
  worker.on('exit', () => retire(slot, new YamlDecodeError('yaml: document could not be decoded')));
  return slot;
}

function finish(slot: Slot): Job | undefined {
  const job = slot.job;
  // An idle decoder never keeps the process alive; a busy one does, until its caller has an answer.
  slot.worker.unref();
  clearTimeout(slot.timer);
  slot.job = undefined;
  slot.timer = undefined;
  return job;
}

/** Takes a worker out of service (crashed, exited or stuck), failing its document. */
function retire(slot: Slot, why: Error): void {
  const job = finish(slot);
  const at = idle.indexOf(slot);
  if (at >= 0) idle.splice(at, 1);
  if (!slot.worker.listenerCount('message')) return;
  slot.worker.removeAllListeners('message');
  workers--;
  void slot.worker.terminate();
  job?.reject(why);
  dispatch();
}

function dispatch(): void {
  while (queue.length > 0) {
    const slot = idle.pop() ?? (workers < MAX_WORKERS ? spawn() : undefined);
    if (slot === undefined) return;
    const job = queue.shift() as Job;
    clearTimeout(slot.timer);
    slot.job = job;
    slot.worker.ref();
    slot.timer = setTimeout(() => retire(slot, new YamlDecodeError('yaml: document took too long to decode')), job.timeoutMs);
    slot.timer.unref();
    slot.worker.postMessage(job.request, job.transfer);
  }
}

/**
 * The one document of source as a JSON value, decoded without holding the event loop: the
 * worker's JSON text is parsed in steps when large (a 120,000-label map: 50-100 ms at once),
 * taking turns with the request's pace.
 */
export function decodeYamlOffThread(source: string, opts: YamlOptions, pace?: Pace): Promise<unknown> {
  if (source.length <= INLINE_MAX_CHARS) {
    try {
      // Through JSON text as from a worker, so both paths give the same value (Infinity: null).
      return Promise.resolve(JSON.parse(JSON.stringify(decodeYaml(source, opts)) ?? 'null'));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  return offThread({ source, opts }, DECODE_TIMEOUT_MS, []).then((reply) => parseJson((reply as { json: string }).json, pace));
}

/**
 * The YAML bytes of a response body's JSON bytes, encoded without holding the event loop. With
 * `owned`, the caller gives json up: its memory moves to the worker instead of being copied.
 */
export function encodeYamlOffThread(json: Uint8Array, owned = false): Promise<Buffer> {
  if (json.length <= INLINE_ENCODE_MAX_CHARS) {
    try {
      return Promise.resolve(Buffer.from(yamlOfJson(Buffer.from(json.buffer, json.byteOffset, json.length).toString('utf8'))));
    } catch (e) {
      return Promise.reject(e);
    }
  }
  // Only a buffer that is all its own memory moves (a pooled one shares it with others).
  const movable = owned && json.byteOffset === 0 && json.byteLength === json.buffer.byteLength;
  return offThread({ encode: json }, ENCODE_TIMEOUT_MS, movable ? [json.buffer as ArrayBuffer] : []).then((reply) => {
    const { yaml } = reply as { yaml: Uint8Array };
    return Buffer.from(yaml.buffer, yaml.byteOffset, yaml.length);
  });
}

function offThread(request: YamlRequest, timeoutMs: number, transfer: ArrayBuffer[]): Promise<YamlReply> {
  return new Promise((resolve, reject) => {
    queue.push({ request, transfer, timeoutMs, resolve, reject });
    dispatch();
  });
}
