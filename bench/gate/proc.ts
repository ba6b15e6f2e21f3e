// /proc readings of a server: RSS and CPU time of the server process and its descendants
// (the spawn helper, short-lived bash children of the probes).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export function procTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length && out.length < 64; i++) {
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${tid}/children`, 'utf8').trim().split(/\s+/))
          if (c) out.push(Number(c));
      } catch {
        // the task ended
      }
    }
  }
  return out;
}

/** Proportional set size: each shared page counted once across the processes that map it. */
function pssKb(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function rssKb(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ').slice(0, 120);
  } catch {
    return '?';
  }
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;
/** User + system CPU seconds of one process. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

export interface Memory {
  serverMb: number;
  /** Server plus its descendants (bash children of probes are short-lived; normally the same). */
  treeMb: number;
  /** The same processes' PSS: information only (the target is judged on the RSS sum). */
  treePssMb: number;
  processes: number;
}
export function memory(pid: number): Memory {
  const tree = procTree(pid);
  const kb = tree.map(rssKb);
  const pss = tree.map(pssKb);
  return {
    serverMb: kb[0]! / 1024,
    treeMb: kb.reduce((a, b) => a + b, 0) / 1024,
    treePssMb: pss.reduce((a, b) => a + b, 0) / 1024,
    processes: tree.length,
  };
}

/**
 * Busy and total jiffies of the whole machine (all CPUs) from /proc/stat, and steal: time the
 * hypervisor gave this VM's CPUs to something else while they had work (a noisy host).
 */
export function machineJiffies(): { busy: number; total: number; steal: number } {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3]! - fields[4]!, total, steal: fields[7] ?? 0 }; // busy: minus idle and iowait
  } catch {
    return { busy: 0, total: 0, steal: 0 };
  }
}

/** Steal over a window, in % of all CPU time of the machine: how much a noisy host took. */
export function stealWindow(): () => number {
  const start = machineJiffies();
  return () => {
    const end = machineJiffies();
    return end.total > start.total ? ((end.steal - start.steal) / (end.total - start.total)) * 100 : NaN;
  };
}

/** CPU seconds of every process named `comm` (e.g. the PostgreSQL backends, which come and go). */
export function commCpuSeconds(comm: string): number {
  let sum = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === comm) sum += cpuSeconds(Number(pid));
    } catch {
      // the process ended
    }
  }
  return sum;
}

/** CPU use over a window (from construction to read()), in % of one CPU: the machine, groups of processes, postgres, this process. */
export class CpuWindow {
  private readonly t0 = performance.now();
  private readonly machine0 = machineJiffies();
  private readonly groups0: number[];
  private readonly postgres0 = commCpuSeconds('postgres');
  private readonly self0 = process.cpuUsage();

  /** Each group: a server's process tree (pids as of now; the spawn helper lives as long as the server). */
  constructor(private readonly groups: number[][]) {
    this.groups0 = groups.map((pids) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0));
  }

  read(): { seconds: number; machinePct: number; groupPct: number[]; postgresPct: number; selfPct: number } {
    const seconds = (performance.now() - this.t0) / 1000;
    const machine = machineJiffies();
    const pct = (cpu: number) => (seconds > 0 ? (cpu / seconds) * 100 : NaN);
    const self = process.cpuUsage(this.self0);
    return {
      seconds,
      machinePct: pct((machine.busy - this.machine0.busy) / CLK_TCK),
      groupPct: this.groups.map((pids, i) =>
        pct(pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - this.groups0[i]!),
      ),
      postgresPct: pct(commCpuSeconds('postgres') - this.postgres0),
      selfPct: pct((self.user + self.system) / 1e6),
    };
  }
}

/** Above this, the host took enough of the VM's CPUs during the probes to move their p50 (bench/README.md). */
export const NOISY_STEAL_PCT = 5;

/** A note for a summary line measured during `stealPct` of steal: empty unless the host was busy. */
export function noisyNote(stealPct: number, during = 'these probes'): string {
  return stealPct > NOISY_STEAL_PCT
    ? ` (CPU steal ${stealPct.toFixed(1)}% during ${during}: the host was busy; a run on a quiet host is what counts)`
    : '';
}
