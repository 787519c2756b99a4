/**
 * What the audit filter hands events to: one or more backends (log file, webhook) behind one
 * sink, and the audit metrics as a small interface so the API server's metrics registry can be
 * connected without the backends knowing it.
 */
import type { MetricsRegistry } from '../../machinery/metrics.js';
import type { AuditEvent } from './event.js';

export interface AuditBackend {
  /**
   * Takes the event as it is now (it changes at later stages): copies what it keeps before
   * returning. `json` renders it once, however many backends ask. Never blocks, never throws.
   */
  process(ev: AuditEvent, json: () => string): void;
  /** Writes or sends what is queued, then releases files and connections. */
  shutdown(): Promise<void>;
}

/** Upstream's audit metrics: events generated and sent to backends, and events a backend failed or dropped. */
export interface AuditMetrics {
  /** apiserver_audit_event_total */
  event(): void;
  /** apiserver_audit_error_total{plugin} */
  error(plugin: string, count: number): void;
  /** apiserver_audit_level_total{level}: the policy's level, once per request evaluated. */
  level(level: string): void;
}

/** The metrics kept as plain counts, until a registry is connected (and for tests). */
export class AuditCounts implements AuditMetrics {
  events = 0;
  readonly errors = new Map<string, number>();
  readonly levels = new Map<string, number>();
  event(): void {
    this.events++;
  }
  error(plugin: string, count: number): void {
    this.errors.set(plugin, (this.errors.get(plugin) ?? 0) + count);
  }
  level(level: string): void {
    this.levels.set(level, (this.levels.get(level) ?? 0) + 1);
  }
}

/** The two counters in a component metrics registry, with upstream's names and help. */
export function registerAuditMetrics(r: MetricsRegistry): AuditMetrics {
  const events = r.counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.' });
  const errors = r.counter({
    name: 'apiserver_audit_error_total',
    help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    labels: ['plugin'],
  });
  const levels = r.counter({ name: 'apiserver_audit_level_total', help: 'Counter of policy levels for audit events (1 per request).', labels: ['level'] });
  return { event: () => events.inc(), error: (plugin, count) => errors.inc([plugin], count), level: (level) => levels.inc([level]) };
}

/** Every backend in turn: the event goes to each (upstream's union backend). */
export function unionBackend(backends: readonly AuditBackend[], metrics?: AuditMetrics): AuditBackend {
  return {
    process(ev, json) {
      metrics?.event();
      for (const b of backends) b.process(ev, json);
    },
    async shutdown() {
      await Promise.all(backends.map((b) => b.shutdown()));
    },
  };
}
