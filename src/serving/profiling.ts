/**
 * `/debug/pprof/` for a Node process. Go's pprof profiles do not exist here; the honest
 * equivalent is V8's sampling CPU profiler: `/debug/pprof/profile?seconds=N` records N seconds
 * (default 30, as pprof) through node:inspector and answers the profile in Node's `.cpuprofile`
 * JSON (open it in Chrome DevTools or speedscope), and `/debug/pprof/heap` a V8 heap snapshot.
 * One profile runs at a time; a second request meanwhile gets 503.
 */
import { Session } from 'node:inspector';

const MAX_SECONDS = 600;
let busy = false;

export interface ProfilingAnswer {
  status: number;
  contentType: string;
  body: string | Buffer;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => {
    session.post(method, params ?? {}, (err, result) => (err ? reject(err) : resolve(result as T)));
  });
}

const INDEX = `<html>
<head><title>/debug/pprof/</title></head>
<body>
/debug/pprof/<br>
<br>
Profiles (V8, not Go pprof):<br>
<a href="profile?seconds=30">profile</a>: a V8 CPU profile (.cpuprofile JSON) over ?seconds=N<br>
<a href="heap">heap</a>: a V8 heap snapshot (.heapsnapshot JSON)<br>
</body>
</html>
`;

/** Answers a request under /debug/pprof/ (sub is what follows that prefix). */
export async function profilingAnswer(sub: string, query: URLSearchParams): Promise<ProfilingAnswer> {
  if (sub === '') return { status: 200, contentType: 'text/html; charset=utf-8', body: INDEX };
  if (sub !== 'profile' && sub !== 'heap') return { status: 404, contentType: 'text/plain; charset=utf-8', body: 'Unknown profile\n' };
  if (busy) return { status: 503, contentType: 'text/plain; charset=utf-8', body: 'Could not enable CPU profiling: cpu profiling already in use\n' };
  busy = true;
  const session = new Session();
  session.connect();
  try {
    if (sub === 'heap') {
      const chunks: string[] = [];
      session.on('HeapProfiler.addHeapSnapshotChunk', (m) => chunks.push((m.params as { chunk: string }).chunk));
      await post(session, 'HeapProfiler.takeHeapSnapshot', { reportProgress: false });
      return { status: 200, contentType: 'application/json', body: chunks.join('') };
    }
    const raw = query.get('seconds');
    const seconds = raw === null ? 30 : Number(raw);
    if (!Number.isFinite(seconds) || seconds <= 0) return { status: 400, contentType: 'text/plain; charset=utf-8', body: 'Bad Request: invalid seconds\n' };
    await post(session, 'Profiler.enable');
    await post(session, 'Profiler.start');
    await new Promise((r) => setTimeout(r, Math.min(seconds, MAX_SECONDS) * 1000));
    const { profile } = await post<{ profile: unknown }>(session, 'Profiler.stop');
    return { status: 200, contentType: 'application/json', body: JSON.stringify(profile) };
  } finally {
    session.disconnect();
    busy = false;
  }
}
