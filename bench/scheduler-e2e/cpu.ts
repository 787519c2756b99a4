/**
 * CPU time of a process and of the whole machine from /proc, so the benchmark can say which
 * process bounds the figure and how much of the 2 cores other work took meanwhile.
 */
import { readFileSync } from 'node:fs';

/** Linux's USER_HZ: /proc counts CPU time in these ticks (100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

/** utime + stime of `pid`, in seconds (threads included). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, so 12 and 13 after the name.
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Busy and total CPU seconds of the machine, summed over its cores (the `cpu` line of /proc/stat). */
export function machineCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'latin1').split('\n')[0] ?? '';
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const total = v.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return { busy: (total - idle) / TICKS_PER_SECOND, total: total / TICKS_PER_SECOND };
}

/** CPU seconds of each process and of the machine since `start()`; `stop()` freezes them. */
export class CpuSampler {
  private readonly before: Map<number, number>;
  private readonly machineBefore = machineCpuSeconds();
  private readonly selfBefore = process.cpuUsage();

  constructor(private readonly pids: number[]) {
    this.before = new Map(pids.map((p) => [p, processCpuSeconds(p)]));
  }

  /** Per pid CPU seconds used, this process's own, and the machine's busy seconds, since construction. */
  read(): { perPid: Map<number, number>; self: number; machineBusy: number } {
    const perPid = new Map(this.pids.map((p) => [p, processCpuSeconds(p) - (this.before.get(p) ?? 0)]));
    const self = process.cpuUsage(this.selfBefore);
    const m = machineCpuSeconds();
    return { perPid, self: (self.user + self.system) / 1e6, machineBusy: m.busy - this.machineBefore.busy };
  }
}
