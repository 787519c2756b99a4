/**
 * One request's audit event as it is filled in: the policy's level decides what the captured
 * bodies become (objectRef completion at Metadata, requestObject at Request, responseObject at
 * RequestResponse), annotations are added by whoever knows something (first value of a key
 * wins, as upstream), and each stage is handed to the backend unless the policy omits it.
 */
import { parse as parseYaml } from 'yaml';
import type { Status } from '../../machinery/status.js';
import type { AuditBackend } from './backend.js';
import type { AuditCapture } from './capture.js';
import { type AuditEvent, eventJson, type ResponseStatus } from './event.js';
import { type Level, levelAtLeast, type RequestAuditConfig, type Stage } from './policy.js';

interface RawBody {
  contentType: string;
  bytes: Buffer;
}

export class AuditRecord implements AuditCapture {
  readonly annotations = new Map<string, string>();
  private requestRaw: RawBody | undefined;
  private responseValue: unknown;
  private responseRaw: RawBody | undefined;
  private hasResponseValue = false;

  constructor(
    readonly ev: AuditEvent,
    readonly config: RequestAuditConfig,
    private readonly backend: AuditBackend,
    private readonly apiVersion: string,
    private readonly now: () => number,
  ) {
    ev.annotations = this.annotations;
  }

  /** Upstream's AddAuditAnnotation(WithLevel): a key keeps its first value. */
  annotate(key: string, value: string, level?: Level): void {
    if (level !== undefined && !levelAtLeast(this.config.level, level)) return;
    if (!this.annotations.has(key)) this.annotations.set(key, value);
  }

  requestBody(contentType: string, bytes: Buffer): void {
    if (levelAtLeast(this.config.level, 'Request')) this.requestRaw = { contentType, bytes };
  }

  requestObject(obj: unknown): void {
    const meta = metadataOf(obj);
    const ref = this.ev.objectRef;
    if (ref && meta) {
      // Upstream's LogRequestObject completes the reference from the object's metadata.
      ref.namespace ||= stringOr(meta.namespace);
      ref.name ||= stringOr(meta.name);
      ref.uid ||= stringOr(meta.uid);
      ref.resourceVersion ||= stringOr(meta.resourceVersion);
    }
    if (!levelAtLeast(this.config.level, 'Request')) return;
    // Taken now: admission and the registry change the object after this.
    this.ev.requestObject = this.objectJson(obj);
    this.requestRaw = undefined;
  }

  responseObject(value: unknown): void {
    if (isStatus(value)) this.ev.responseStatus = statusOf(value as Status);
    if (!levelAtLeast(this.config.level, 'RequestResponse')) return;
    this.responseValue = value;
    this.hasResponseValue = true;
  }

  responseBody(contentType: string, bytes: Buffer): void {
    if (!this.hasResponseValue && levelAtLeast(this.config.level, 'RequestResponse')) this.responseRaw = { contentType, bytes };
  }

  /** The response's code, once headers are out (ResponseStarted) or at the end. */
  setCode(code: number): void {
    this.ev.responseStatus ??= {};
    this.ev.responseStatus.code = code;
  }

  /** The failure the request ended with, as upstream copies a Status into the event. */
  setError(status: Status): void {
    this.ev.responseStatus = statusOf(status);
    this.responseObject(status);
  }

  /** Hands the event at this stage to the backend, unless the policy omits the stage. */
  emit(stage: Stage): void {
    if (this.config.omitStages.has(stage)) return;
    const ev = this.ev;
    ev.stage = stage;
    ev.stageTimestamp = this.now();
    if (stage === 'ResponseComplete' || stage === 'Panic') {
      if (ev.requestObject === undefined && this.requestRaw) ev.requestObject = this.rawJson(this.requestRaw);
      if (this.hasResponseValue) ev.responseObject = this.objectJson(this.responseValue);
      else if (this.responseRaw) ev.responseObject = this.rawJson(this.responseRaw);
    }
    let json: string | undefined;
    this.backend.process(ev, () => {
      json ??= eventJson(ev, this.apiVersion);
      return json;
    });
  }

  private objectJson(value: unknown): string | undefined {
    try {
      return JSON.stringify(this.config.omitManagedFields ? withoutManagedFields(value) : value);
    } catch {
      return undefined;
    }
  }

  /** A body as compact JSON: JSON and YAML texts are re-encoded, other encodings are not recorded. */
  private rawJson(raw: RawBody): string | undefined {
    const type = raw.contentType.split(';')[0].trim().toLowerCase();
    try {
      if (type.endsWith('json') || type === '') return this.objectJson(JSON.parse(raw.bytes.toString('utf8')));
      if (type.endsWith('yaml')) return this.objectJson(parseYaml(raw.bytes.toString('utf8')));
    } catch {
      return undefined;
    }
    return undefined;
  }
}

type Meta = Record<string, unknown>;

function metadataOf(obj: unknown): Meta | undefined {
  if (obj === null || typeof obj !== 'object') return undefined;
  const meta = (obj as { metadata?: unknown }).metadata;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Meta) : undefined;
}

const stringOr = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

function isStatus(v: unknown): boolean {
  return v !== null && typeof v === 'object' && (v as { kind?: unknown }).kind === 'Status' && typeof (v as { code?: unknown }).code === 'number';
}

/** The Status's bounded fields (upstream copies these, never its metadata). */
function statusOf(s: Status): ResponseStatus {
  return { status: s.status, message: s.message, reason: s.reason, details: s.details, code: s.code };
}

/** Upstream's removeManagedFields: of the object, or of each item of a list. */
function withoutManagedFields(value: unknown): unknown {
  const meta = metadataOf(value);
  const obj = value as { items?: unknown; metadata?: Meta };
  if (Array.isArray(obj?.items)) return { ...obj, items: obj.items.map(withoutManagedFields) };
  if (!meta || !('managedFields' in meta)) return value;
  const { managedFields: _, ...rest } = meta;
  return { ...obj, metadata: rest };
}
