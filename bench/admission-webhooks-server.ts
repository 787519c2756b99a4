/**
 * The webhook server of the admission-webhook benchmark, on a worker thread: `/mutate` answers
 * with a JSONPatch adding an annotation, anything else allows. Posts its port when listening.
 */
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const { cert, key } = workerData as { cert: string; key: string };
const patch = Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/annotations', value: { hooked: 'yes' } }])).toString('base64');
const server = createServer({ cert, key }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const uid = review.request.uid;
    const response = req.url?.startsWith('/mutate') ? { uid, allowed: true, patchType: 'JSONPatch', patch } : { uid, allowed: true };
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response }));
  });
});
server.listen(0, '127.0.0.1', () => parentPort?.postMessage({ port: (server.address() as AddressInfo).port }));
