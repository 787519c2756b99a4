/**
 * A lane: one keep-alive connection, its own namespace and fixtures, running its share of the
 * cases one after another. Owning its objects lets it compare them before and after each case
 * without other lanes' writes getting in the way.
 */
import type https from 'node:https';
import { configMap, fixtureFor, type Obj } from './bodies.js';
import { type Answer, send, type ServerInfo } from './client.js';
import type { LaneContext } from './hostile-case.js';

/** Objects larger than this are reset to the fixture before the next case (keeps GETs cheap). */
const RESET_ABOVE_BYTES = 64 * 1024;

export class Lane {
  readonly ctx: LaneContext;
  private nsGeneration = 0;
  /** Objects' JSON as last read, valid until the lane's next accepted write (saves a GET per case). */
  readonly known = new Map<string, string>();
  /** The namespace fixture may have been deleted or finalized: check it before the next case. */
  nsObjDirty = true;

  constructor(
    readonly index: number,
    public server: ServerInfo,
    public agent: https.Agent,
    readonly timeoutMs: number,
  ) {
    const ns = `hostile-${index}`;
    const cms = `/api/v1/namespaces/${ns}/configmaps`;
    const pods = `/api/v1/namespaces/${ns}/pods`;
    const deploys = `/apis/apps/v1/namespaces/${ns}/deployments`;
    this.ctx = { lane: index, ns, cms, cm: `${cms}/cm`, pods, pod: `${pods}/pod`, deploys, deploy: `${deploys}/deploy`, nsObj: '', nsObjName: '' };
    this.renameNsObj();
  }

  private renameNsObj(): void {
    this.ctx.nsObjName = `hostile-ns-${this.index}-${this.nsGeneration++}`;
    this.ctx.nsObj = `/api/v1/namespaces/${this.ctx.nsObjName}`;
  }

  /** A JSON request of the lane's own (setup, snapshots, cleanup). */
  call(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
    return send(this.server, this.agent, method, path, {
      timeoutMs: this.timeoutMs,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': contentType },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Creates the lane's namespace (idempotent). */
  async setup(): Promise<void> {
    this.known.clear();
    const r = await this.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.ctx.ns } });
    if (r.status !== 201 && r.status !== 409) throw new Error(`lane ${this.index}: creating namespace: ${r.status} ${r.error ?? r.text.slice(0, 200)}`);
    this.nsObjDirty = true;
  }

  /** Makes sure the namespace fixture exists and is not terminating (renaming it when it is). */
  async checkNsObj(): Promise<void> {
    if (!this.nsObjDirty) return;
    const r = await this.call('GET', this.ctx.nsObj);
    if (r.status === 200 && !JSON.parse(r.text).metadata?.deletionTimestamp) {
      this.nsObjDirty = false;
      return;
    }
    if (r.status === 200) this.renameNsObj();
    await this.ensure(this.ctx.nsObj);
    this.nsObjDirty = false;
  }

  /**
   * The fixture at path as stored (text of its JSON), created or reset first when it is missing,
   * terminating or grown large; undefined when it cannot be made (reported by the caller).
   */
  async ensure(path: string): Promise<{ text: string; status: number } | undefined> {
    const fixture = fixtureFor(this.ctx, path) ?? (path.startsWith(this.ctx.cms) ? configMap(path.slice(this.ctx.cms.length + 1), this.ctx.ns) : undefined);
    for (let attempt = 0; attempt < 6; attempt++) {
      const r = await this.call('GET', path);
      if (r.status === 200) {
        const obj = JSON.parse(r.text) as Obj & { metadata: { deletionTimestamp?: string; finalizers?: string[] } };
        if (obj.metadata?.deletionTimestamp) {
          if (obj.metadata.finalizers?.length) await this.call('PATCH', path, { metadata: { finalizers: null } }, 'application/merge-patch+json');
          await this.call('DELETE', `${path}?gracePeriodSeconds=0`);
          if (path === this.ctx.nsObj) return undefined;
          continue;
        }
        if (r.text.length > RESET_ABOVE_BYTES && fixture) {
          await this.call('PUT', path, fixture);
          continue;
        }
        return { text: r.text, status: 200 };
      }
      if (r.status === 404 && fixture) {
        const collection = path.slice(0, path.lastIndexOf('/'));
        await this.call('POST', collection, fixture);
        continue;
      }
      if (r.status === 404) return { text: '', status: 404 };
      return undefined;
    }
    return undefined;
  }

  /** The sorted names in a collection (for deletecollection's before/after). */
  async names(collection: string): Promise<string | undefined> {
    const r = await this.call('GET', collection);
    if (r.status !== 200) return undefined;
    // An object already being deleted (a foreground deletion waiting for the garbage collector)
    // may go at any moment, whatever the case does: it is not counted.
    return (JSON.parse(r.text).items as { metadata: { name: string; deletionTimestamp?: string } }[])
      .filter((i) => i.metadata.deletionTimestamp === undefined)
      .map((i) => i.metadata.name)
      .sort()
      .join(',');
  }

  /** Removes an object a case created (one with finalizers stays terminating; harmless). */
  async remove(path: string): Promise<void> {
    await this.call('DELETE', `${path}?gracePeriodSeconds=0`);
  }
}
