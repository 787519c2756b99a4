import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { AuditCounts } from './backend.js';
import type { AuditEvent } from './event.js';
import { LOG_PLUGIN, logBackend } from './log-backend.js';

const ev = (id: string): AuditEvent => ({
  level: 'Metadata',
  auditID: id,
  stage: 'ResponseComplete',
  requestURI: '/version',
  verb: 'get',
  user: { name: 'admin', groups: ['system:masters'] },
  sourceIPs: ['127.0.0.1'],
  userAgent: 'curl/8',
  responseStatus: { code: 200 },
  requestReceivedTimestamp: Date.UTC(2026, 10, 26, 4, 30, 0, 5),
  stageTimestamp: Date.UTC(2026, 10, 26, 4, 30, 0, 6),
});

test("`-` writes to stdout; the legacy format is upstream's one line per event", async () => {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c) => chunks.push(c));
  const backend = logBackend({ path: '-', format: 'legacy', maxSizeMB: 0, maxBackups: 0, maxAgeDays: 0, bufferSize: 10, stdout: out });
  backend.process(ev('a'), () => assert.fail('the legacy format renders no JSON'));
  await backend.shutdown();
  assert.equal(
    Buffer.concat(chunks).toString(),
    '2026-11-26T04:30:00.005Z AUDIT: id="a" stage="ResponseComplete" ip="127.0.0.1" method="get" user="admin" groups="\\"system:masters\\"" as="<self>" asgroups="<lookup>" user-agent="curl/8" namespace="<none>" uri="/version" response="200"\n',
  );
});

test('JSON lines to a file; a full queue drops and counts instead of waiting', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'audit-log-'));
  try {
    const metrics = new AuditCounts();
    const path = join(dir, 'sub', 'audit.log');
    const backend = logBackend({ path, format: 'json', maxSizeMB: 1, maxBackups: 1, maxAgeDays: 0, bufferSize: 3, metrics });
    // The first event is taken by the writer at once; three more fill the queue; the rest drop.
    for (let i = 0; i < 6; i++) backend.process(ev(`e${i}`), () => JSON.stringify({ auditID: `e${i}` }));
    assert.equal(metrics.errors.get(LOG_PLUGIN), 2);
    await backend.shutdown();
    const ids = (await readFile(path, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).auditID);
    assert.deepEqual(ids, ['e0', 'e1', 'e2', 'e3']);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
