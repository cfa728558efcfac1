/**
 * `npm run bench`: guard's scan throughput against the floor of reading and parsing the same
 * bytes, one job against several, peak memory, and inspection / recovery against two peers.
 * A script, not a test: CI does not run it. docs/performance.md records its figures.
 *
 * Runs (a) the floor, (b) `guard scan --jobs 1`, (c) `--jobs N`, (d) `--jobs 1 --cache` into an
 * empty cache and (e) the same again over the unchanged set (every file replayed), then prints a
 * line comparing this run's ratios with those recorded in docs/performance.md (bench/compare.mjs).
 *
 * Usage: node bench/run.mjs [--size 200MB] [--seed 1] [--jobs 2] [--dir DIR] [--peer-seconds 2]
 *        [--no-peers] [--keep]
 * The capture set is generated under DIR (default: $TMPDIR/guard-bench-<size>-<seed>) and
 * removed afterwards unless --keep (a kept set is reused by the next run with the same size and seed).
 */

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate, parseSize } from './generate.mjs';
import { measure } from './measure.mjs';
import { comparePeers } from './peers.mjs';
import { compareFigures, recordedFigures } from './compare.mjs';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && i + 1 < process.argv.length ? process.argv[i + 1] : fallback;
}
const flag = (name) => process.argv.includes(`--${name}`);

const sizeArg = option('size', '200MB');
const size = parseSize(sizeArg);
const seed = Number(option('seed', '1'));
const jobs = Number(option('jobs', '2'));
const dir = option('dir', join(tmpdir(), `guard-bench-${size}-${seed}`));
const peerSeconds = Number(option('peer-seconds', '2'));

if (!existsSync(join(ROOT, 'dist/index.js'))) {
  console.error('bench: dist/ is missing; run `npm run build` first (npm run bench does)');
  process.exit(2);
}

const mb = (bytes) => bytes / 1e6;
const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : x.toFixed(d));

/**
 * The share of all cores busy over `ms` (from /proc/stat; null where it does not exist): other
 * processes' use right before the runs. The load average would count the bench's own last runs.
 */
async function busyShare(ms) {
  const sample = () => {
    try {
      const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
      return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const a = sample();
  await new Promise((ok) => setTimeout(ok, ms));
  const b = sample();
  if (!a || !b || b.total === a.total) return null;
  return 1 - (b.idle - a.idle) / (b.total - a.total);
}
const busyBefore = await busyShare(1000);
console.log(`machine: ${availableParallelism()} cores (nproc), ${cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}, cores busy before the runs ${busyBefore === null ? 'n/a' : `${(busyBefore * 100).toFixed(0)}%`}, load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
console.log(`generating ${sizeArg} (seed ${seed}) in ${dir} ...`);
const t0 = Date.now();
const set = await generate(dir, size, seed);
const files = set.files.map((f) => join(dir, f.name));
console.log(`  ${set.files.length} files, ${fmt(mb(set.bytes))} MB, ${set.replies} replies (${((Date.now() - t0) / 1000).toFixed(1)} s)`);

/** Reply and problem counts from guard's summary line on stderr. */
function summaryCounts(stderr) {
  const m = /(\d+) files?, (\d+) repl(?:y|ies)/.exec(stderr);
  return m ? { files: Number(m[1]), replies: Number(m[2]) } : null;
}

const rows = [];
const node = process.execPath;

const floor = await measure(node, [join(ROOT, 'bench/floor.mjs'), ...files], { stdout: 'pipe' });
if (floor.code !== 0) throw new Error(`floor failed: ${floor.stderr}`);
rows.push({ name: '(a) floor: lines + JSON.parse', ...floor, replies: set.replies });

for (const j of [1, jobs]) {
  const r = await measure(node, [join(ROOT, 'bin/guard.js'), 'scan', dir, '--format', 'ndjson', '--jobs', String(j)], { stdout: 'ignore' });
  const counts = summaryCounts(r.stderr);
  if (!counts) throw new Error(`guard scan --jobs ${j} printed no summary (exit ${r.code}): ${r.stderr.slice(0, 500)}`);
  if (counts.replies !== set.replies) console.warn(`  warning: guard counted ${counts.replies} replies, the generator wrote ${set.replies}`);
  rows.push({ name: `(${j === 1 ? 'b' : 'c'}) guard scan --format ndjson --jobs ${j}`, ...r, replies: counts.replies });
}

// (d) a first scan with --cache (hashing and storing every file), (e) the rescan of the unchanged set
const cacheDir = mkdtempSync(join(tmpdir(), 'guard-bench-cache-'));
try {
  for (const [name, label] of [['d', 'first run, empty cache'], ['e', 'rescan, unchanged']]) {
    const r = await measure(node, [join(ROOT, 'bin/guard.js'), 'scan', dir, '--format', 'ndjson', '--jobs', '1', '--cache', '--cache-location', join(cacheDir, 'cache')], { stdout: 'ignore' });
    const counts = summaryCounts(r.stderr);
    if (!counts) throw new Error(`guard scan --cache (${label}) printed no summary (exit ${r.code}): ${r.stderr.slice(0, 500)}`);
    if (counts.replies !== set.replies) console.warn(`  warning: guard --cache (${label}) counted ${counts.replies} replies, the generator wrote ${set.replies}`);
    const cacheLine = /guard: cache .*/.exec(r.stderr)?.[0];
    if (cacheLine) console.log(`  (${name}) ${cacheLine}`);
    rows.push({ name: `(${name}) guard scan --jobs 1 --cache (${label})`, ...r, replies: counts.replies });
  }
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}

console.log('');
console.log('| run | wall s | CPU s | MB/s | replies/s | peak RSS MB |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const r of rows) {
  const s = r.wallMs / 1000;
  console.log(`| ${r.name} | ${fmt(s, 2)} | ${fmt(r.cpuMs === null ? null : r.cpuMs / 1000, 2)} | ${fmt(mb(set.bytes) / s)} | ${fmt(r.replies / s, 0)} | ${fmt(r.maxRssKb === null ? null : r.maxRssKb / 1024)} |`);
}
const [a, b, c, d, e] = rows;
console.log('');
console.log(`(b)/(a) time: ${fmt(b.wallMs / a.wallMs, 2)}x wall, ${a.cpuMs ? fmt(b.cpuMs / a.cpuMs, 2) : 'n/a'}x CPU (target <= 2.5x)`);
console.log(`(c) speed-up over (b): ${fmt(b.wallMs / c.wallMs, 2)}x (wall of (b) / wall of (c)) with --jobs ${jobs}, CPU ${c.cpuMs ? fmt(c.cpuMs / b.cpuMs, 2) : 'n/a'}x of (b)'s (target >= 1.7x on two cores)`);
if (busyBefore !== null && busyBefore > 0.25) console.log(`note: ${(busyBefore * 100).toFixed(0)}% of the cores were busy before the runs: other processes shared the CPU, wall times and scaling are not representative`);
console.log(`peak RSS (b) ${fmt(b.maxRssKb / 1024)} MB, (c) ${fmt(c.maxRssKb / 1024)} MB (target < 200 MB on 1 GB, flat as size grows)`);
console.log(`--cache: first run ${fmt(d.wallMs / b.wallMs, 2)}x (b)'s wall (hashing and storing), rescan of the unchanged set ${fmt(e.wallMs / b.wallMs, 3)}x (target <= 0.05x), peak RSS ${fmt(d.maxRssKb / 1024)} / ${fmt(e.maxRssKb / 1024)} MB`);
const ratios = {
  b_over_a_cpu: a.cpuMs ? b.cpuMs / a.cpuMs : null,
  b_over_a_wall: b.wallMs / a.wallMs,
  c_over_b_cpu: b.cpuMs ? c.cpuMs / b.cpuMs : null,
  b_over_c_wall: b.wallMs / c.wallMs,
  rescan_over_b_wall: e.wallMs / b.wallMs,
};

if (!flag('no-peers')) {
  console.log('');
  console.log(`peers (${peerSeconds} s per side) ...`);
  const lib = await import('../dist/index.js');
  const p = await comparePeers(lib, peerSeconds);
  console.log(`inspection: guard inspectCalls ${fmt(p.inspection.guardUs)} us/call (${fmt(p.inspection.cachedUs)} us for a repeated command), cc-safety-net checkCommand ${fmt(p.inspection.peerUs)} us/call over ${p.inspection.cases} commands: ratio ${fmt(p.inspection.ratio, 2)} (target <= 1)`);
  ratios.inspection_ratio = p.inspection.ratio;
  ratios.recovery_ratio = p.recovery.ratio;
  console.log(`recovery: guard recoverReply ${fmt(p.recovery.guardUs)} us/reply, @ai-sdk-tool/parser hermes ${fmt(p.recovery.peerUs)} us/reply over ${p.recovery.cases} Hermes leaks: ratio ${fmt(p.recovery.ratio, 2)}; same call names on ${p.recovery.agree}/${p.recovery.cases}`);
}

// this run against the figures recorded in docs/performance.md (the `json bench-figures` block)
{
  const recorded = recordedFigures(readFileSync(join(ROOT, 'docs/performance.md'), 'utf8'), sizeArg.toUpperCase());
  console.log('');
  if (recorded.error) console.log(`against docs/performance.md: ${recorded.error}`);
  else {
    const { line, regressions } = compareFigures(ratios, recorded.figures);
    console.log(`against docs/performance.md (${sizeArg.toUpperCase()}; now (recorded, change)): ${line}`);
    console.log(regressions.length ? `regressions beyond 10%: ${regressions.join(', ')}` : 'no ratio worse than recorded by more than 10%');
  }
  console.log(`this run's figures, for the block: ${JSON.stringify(Object.fromEntries(Object.entries(ratios).map(([k, v]) => [k, v === null ? null : Number(v.toFixed(3))])))}`);
}

if (!flag('keep')) {
  rmSync(dir, { recursive: true, force: true });
  rmSync(`${dir}.manifest.json`, { force: true });
}
