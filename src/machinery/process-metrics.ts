/**
 * client_golang's process collector for this Node process: CPU seconds, resident and virtual
 * memory, start time, open and maximum file descriptors (read from /proc where Linux has it,
 * as the Go collector does), set at each scrape. Plus Node's heap in bytes, as the Go runtime's
 * `go_memstats_*` would be for a Go binary.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { MetricsRegistry } from './metrics.js';

// The moment the process started, fixed once: uptime counts from it.
const START_SECONDS = Date.now() / 1000 - process.uptime();

/** Registers the process metrics; their values are read when the registry is scraped. */
export function registerProcessMetrics(registry: MetricsRegistry): void {
  const plain = { stability: 'NONE' } as const;
  const cpu = registry.counter({ name: 'process_cpu_seconds_total', help: 'Total user and system CPU time spent in seconds.', ...plain }).child();
  const rss = registry.gauge({ name: 'process_resident_memory_bytes', help: 'Resident memory size in bytes.', ...plain }).child();
  const vsize = registry.gauge({ name: 'process_virtual_memory_bytes', help: 'Virtual memory size in bytes.', ...plain }).child();
  const start = registry.gauge({ name: 'process_start_time_seconds', help: 'Start time of the process since unix epoch in seconds.', ...plain }).child();
  const openFds = registry.gauge({ name: 'process_open_fds', help: 'Number of open file descriptors.', ...plain }).child();
  const maxFds = registry.gauge({ name: 'process_max_fds', help: 'Maximum number of open file descriptors.', ...plain }).child();
  const heap = registry
    .gauge({ name: 'nodejs_heap_size_used_bytes', help: 'Bytes of the V8 heap in use (Node: what go_memstats_heap_inuse_bytes is for Go).', ...plain })
    .child();
  const maxFdCount = readMaxFds();
  registry.onCollect(() => {
    const usage = process.cpuUsage();
    cpu.set((usage.user + usage.system) / 1e6);
    const mem = process.memoryUsage();
    rss.set(mem.rss);
    heap.set(mem.heapUsed);
    start.set(START_SECONDS);
    const v = readVirtualMemory();
    if (v !== undefined) vsize.set(v);
    const fds = countOpenFds();
    if (fds !== undefined) openFds.set(fds);
    if (maxFdCount !== undefined) maxFds.set(maxFdCount);
  });
}

function countOpenFds(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

// /proc/self/stat field 23 (vsize), counted after the parenthesised command name.
function readVirtualMemory(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const v = Number(fields[20]);
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

// The soft limit of "Max open files" in /proc/self/limits.
function readMaxFds(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const v = Number(line?.slice('Max open files'.length).trim().split(/\s+/)[0]);
    return Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}
