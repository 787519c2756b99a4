/**
 * orch-scheduler's ports against a real orch API server: anonymous health checks pass, /metrics
 * needs `get /metrics` (a token user without rights is 403 through TokenReview and
 * SubjectAccessReview, a system:masters token or client certificate is 200), bad tokens are 401,
 * the self-signed certificate lands in --cert-dir, /configz shows the configuration, and the
 * deprecated insecure port serves health and metrics to anyone.
 */
import assert from 'node:assert/strict';
import { readdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import tls from 'node:tls';
import { ensureCertificates, generateSelfSignedServing, type PkiMaterial } from '../src/pki/certificates.js';
import { startTestCluster, type TestCluster } from './helpers/cluster.js';
import { type ServingScheduler, serveScheduler } from './helpers/scheduler-process.js';

let dir: string;
let cluster: TestCluster;
let scheduler: ServingScheduler;
let insecurePort: number;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orch-sched-serving-'));
  const tokens = join(dir, 'tokens.csv');
  await writeFile(tokens, 'admintoken,token-admin,100,"system:masters"\nbobtoken,bob,101,dev\n', { mode: 0o600 });
  // Bob is bound to nothing, so his SubjectAccessReview is denied; the admin token is a master.
  cluster = await startTestCluster({ storageBackend: 'memory', tokenAuthFile: tokens });
  insecurePort = await freePort();
  // --secure-port=0 turns HTTPS off (upstream), so the test picks a free port itself.
  scheduler = await serveScheduler([
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    '--address=127.0.0.1',
    `--port=${insecurePort}`,
    `--cert-dir=${join(dir, 'certs')}`,
    `--kubeconfig=${cluster.kubeconfigPath}`,
    `--authentication-kubeconfig=${cluster.kubeconfigPath}`,
    `--authorization-kubeconfig=${cluster.kubeconfigPath}`,
    `--client-ca-file=${join(cluster.dataDir, 'pki', 'ca.crt')}`,
    '--leader-elect=false',
  ]);
});
after(async () => {
  await scheduler?.stop();
  await cluster?.close();
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  text: string;
  headers: http.IncomingHttpHeaders;
}

function get(path: string, opts: { token?: string; cert?: { cert: string; key: string }; method?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port: scheduler.securePort,
        path,
        method: opts.method ?? 'GET',
        rejectUnauthorized: false,
        ...(opts.cert ?? {}),
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

function getInsecure(path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port: insecurePort, path }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('secure port', () => {
  test('anonymous health checks pass (always-allowed paths)', async () => {
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const r = await get(path);
      assert.equal(r.status, 200, path);
      assert.equal(r.text, 'ok');
    }
    const verbose = await get('/healthz?verbose');
    assert.equal(verbose.text, '[+]ping ok\nhealthz check passed\n');
  });

  test('the self-signed serving certificate is written to --cert-dir', async () => {
    assert.deepEqual((await readdir(join(dir, 'certs'))).sort(), ['orch-scheduler.crt', 'orch-scheduler.key']);
  });

  test('/metrics is 403 for a user the API server does not allow (SubjectAccessReview denied)', async () => {
    const r = await get('/metrics', { token: 'bobtoken' });
    assert.equal(r.status, 403);
    const status = JSON.parse(r.text);
    assert.equal(status.kind, 'Status');
    assert.equal(status.reason, 'Forbidden');
    assert.equal(status.message, 'forbidden: User "bob" cannot get path "/metrics"');
  });

  test('/metrics is 403 for anonymous requests', async () => {
    const r = await get('/metrics');
    assert.equal(r.status, 403);
    assert.equal(JSON.parse(r.text).message, 'forbidden: User "system:anonymous" cannot get path "/metrics"');
  });

  test('/metrics is 200 for a system:masters token (TokenReview) with the scheduler metrics', async () => {
    const r = await get('/metrics', { token: 'admintoken' });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
    assert.match(
      r.text,
      /^# HELP scheduler_preemption_attempts_total \[ALPHA\] Total preemption attempts in the cluster till now\n# TYPE scheduler_preemption_attempts_total counter\nscheduler_preemption_attempts_total 0$/m,
    );
    assert.match(r.text, /^scheduler_scheduling_algorithm_duration_seconds_bucket\{le="0\.001"\} 0$/m);
    assert.match(r.text, /^scheduler_scheduling_algorithm_duration_seconds_bucket\{le="16\.384"\} 0$/m);
    // Deprecated since 1.19: hidden without --show-hidden-metrics-for-version.
    assert.doesNotMatch(r.text, /scheduler_scheduling_algorithm_predicate_evaluation_seconds/);
  });

  test('/metrics is 200 for a client certificate of --client-ca-file in system:masters', async () => {
    const r = await get('/metrics', { cert: { cert: cluster.adminCertPem, key: cluster.adminKeyPem } });
    assert.equal(r.status, 200);
  });

  test('an unknown bearer token is 401', async () => {
    const r = await get('/metrics', { token: 'nobody' });
    assert.equal(r.status, 401);
    assert.deepEqual(JSON.parse(r.text), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });

  test('/configz shows the effective configuration', async () => {
    const r = await get('/configz', { token: 'admintoken' });
    assert.equal(r.status, 200);
    const cfg = JSON.parse(r.text).componentconfig;
    assert.equal(cfg.kind, 'KubeSchedulerConfiguration');
    assert.equal(cfg.leaderElection.leaderElect, false);
    assert.equal(cfg.profiles[0].schedulerName, 'default-scheduler');
  });

  test('unknown paths are 404 once authorized', async () => {
    const r = await get('/nope', { token: 'admintoken' });
    assert.equal(r.status, 404);
    assert.equal(r.text, '404 page not found\n');
  });
});

describe('profiling', () => {
  test('/debug/pprof/profile answers a V8 CPU profile for an allowed user', async () => {
    const r = await get('/debug/pprof/profile?seconds=1', { token: 'admintoken' });
    assert.equal(r.status, 200);
    const profile = JSON.parse(r.text);
    assert.ok(Array.isArray(profile.nodes) && profile.nodes.length > 0);
    assert.ok(profile.endTime > profile.startTime);
    assert.equal((await get('/debug/pprof/profile?seconds=1', { token: 'bobtoken' })).status, 403);
  });

  test('PUT /debug/flags/v sets the verbosity', async () => {
    const r = await new Promise<Answer>((resolve, reject) => {
      const req = https.request(
        {
          host: '127.0.0.1',
          port: scheduler.securePort,
          path: '/debug/flags/v',
          method: 'PUT',
          rejectUnauthorized: false,
          headers: { authorization: 'Bearer admintoken' },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => {
            text += c.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end('3');
    });
    assert.equal(r.status, 200);
    assert.equal(r.text, 'successfully set klog.logging.verbosity to 3');
  });
});

describe('insecure port (deprecated)', () => {
  test('serves health and metrics without authentication', async () => {
    assert.equal((await getInsecure('/healthz')).text, 'ok');
    const m = await getInsecure('/metrics');
    assert.equal(m.status, 200);
    assert.match(m.text, /scheduler_preemption_attempts_total 0/);
  });
});

describe('TLS flags and request-header authentication', () => {
  let tlsScheduler: ServingScheduler;
  let proxy: PkiMaterial;
  before(async () => {
    // A CA of its own for the authenticating proxy; its admin certificate (CN=admin) is the proxy.
    proxy = await ensureCertificates(join(dir, 'proxy-pki'), { hosts: ['localhost'], ips: ['127.0.0.1'] });
    const sni = await generateSelfSignedServing('sni.example', [], []);
    await writeFile(join(dir, 'sni.crt'), sni.certPem);
    await writeFile(join(dir, 'sni.key'), sni.keyPem);
    tlsScheduler = await serveScheduler([
      '--bind-address=127.0.0.1',
      `--secure-port=${await freePort()}`,
      '--port=0',
      `--kubeconfig=${cluster.kubeconfigPath}`,
      '--leader-elect=false',
      '--tls-min-version=VersionTLS13',
      `--tls-sni-cert-key=${join(dir, 'sni.crt')},${join(dir, 'sni.key')}:sni.example`,
      `--requestheader-client-ca-file=${proxy.paths.caCert}`,
      '--requestheader-allowed-names=admin',
    ]);
  });
  after(async () => {
    await tlsScheduler?.stop();
  });

  const handshake = (opts: tls.ConnectionOptions): Promise<tls.PeerCertificate> =>
    new Promise((resolve, reject) => {
      const socket = tls.connect({ host: '127.0.0.1', port: tlsScheduler.securePort, rejectUnauthorized: false, ...opts }, () => {
        const cert = socket.getPeerCertificate();
        socket.end();
        resolve(cert);
      });
      socket.on('error', reject);
    });

  test('--tls-min-version refuses older protocol versions', async () => {
    await assert.rejects(handshake({ maxVersion: 'TLSv1.2' }));
    assert.ok(await handshake({ minVersion: 'TLSv1.3' }));
  });

  test('--tls-sni-cert-key serves its certificate for its names, the default one otherwise', async () => {
    assert.match(String((await handshake({ servername: 'sni.example' })).subject.CN), /^sni\.example@\d+$/);
    assert.match(String((await handshake({ servername: 'other.example' })).subject.CN), /^localhost@\d+$/);
  });

  test('without an authorization kubeconfig everything but the always-allowed paths is forbidden', async () => {
    const answer = await new Promise<number>((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port: tlsScheduler.securePort, path: '/metrics', rejectUnauthorized: false }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    assert.equal(answer, 403);
  });

  test('--requestheader-*: the proxy names the user in X-Remote-* headers; others cannot', async () => {
    const call = (cert: { cert: string; key: string } | undefined) =>
      new Promise<number>((resolve, reject) => {
        https
          .get(
            {
              host: '127.0.0.1',
              port: tlsScheduler.securePort,
              path: '/metrics',
              rejectUnauthorized: false,
              ...(cert ?? {}),
              headers: { 'X-Remote-User': 'alice', 'X-Remote-Group': 'system:masters' },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          )
          .on('error', reject);
      });
    assert.equal(await call({ cert: proxy.adminCertPem, key: proxy.adminKeyPem }), 200);
    // Without the proxy's certificate the headers are not trusted: anonymous, forbidden.
    assert.equal(await call(undefined), 403);
    // A certificate from another CA presenting the headers is refused outright.
    assert.equal(await call({ cert: cluster.adminCertPem, key: cluster.adminKeyPem }), 401);
  });
});
