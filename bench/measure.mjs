/**
 * Running one command of the benchmark and measuring it: wall time (ms, from spawn to exit),
 * CPU time (user + system, ms) and peak resident set size (KiB, the process and all its threads).
 *
 * With GNU time (/usr/bin/time) the figures come from its `-f` report (getrusage of the child:
 * ru_maxrss, ru_utime, ru_stime). Without it (macOS, minimal images), /proc/<pid>/status VmHWM
 * is sampled every 20 ms on Linux (the high-water mark, so the last sample is the peak up to
 * then) and CPU time is not reported.
 */

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';

/**
 * Runs `cmd args` with stdout to `stdout` ('ignore' for /dev/null, or 'pipe' to capture it).
 *
 * @returns { code, wallMs, cpuMs (null without GNU time), maxRssKb (null when unknown), stdout, stderr }
 */
export async function measure(cmd, args, { stdout = 'ignore', cwd } = {}) {
  const useTime = existsSync(GNU_TIME);
  const dir = mkdtempSync(join(tmpdir(), 'guard-bench-'));
  const report = join(dir, 'time.txt');
  const argv = useTime ? ['-f', '%e %U %S %M', '-o', report, cmd, ...args] : args;
  const start = process.hrtime.bigint();
  const child = spawn(useTime ? GNU_TIME : cmd, argv, { stdio: ['ignore', stdout, 'pipe'], cwd });
  let out = '';
  let err = '';
  if (stdout === 'pipe') child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let polled = null;
  const timer = useTime
    ? null
    : setInterval(() => {
        try {
          const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
          if (m) polled = Number(m[1]);
        } catch {
          // gone, or not Linux
        }
      }, 20);
  const code = await new Promise((ok) => child.on('close', ok));
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (timer) clearInterval(timer);
  let cpuMs = null;
  let maxRssKb = polled;
  if (useTime) {
    // GNU time may prefix "Command exited with non-zero status N"; the figures are the last line
    const last = readFileSync(report, 'utf8').trim().split('\n').pop();
    const [, user, sys, rss] = last.split(' ').map(Number);
    cpuMs = (user + sys) * 1000;
    maxRssKb = rss;
  }
  rmSync(dir, { recursive: true, force: true });
  return { code, wallMs, cpuMs, maxRssKb, stdout: out, stderr: err };
}
