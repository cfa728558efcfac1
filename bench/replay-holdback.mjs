#!/usr/bin/env node
/**
 * How much visible text `guard replay` holds back on clean captures: for every SSE and chunk
 * fixture (and every SSE file of ../shared/captures when present), the largest amount of text
 * held at any moment (UTF-16 code units) and the largest number of input events held, in observe
 * mode with the built-in rules. Run after `npm run build`: `npm run bench:replay`.
 * Prints a Markdown table and the maxima; docs/replay.md records the result.
 */

import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileRuleSet, DEFAULT_PROSE_CEILING, initInspection, readJsonlFrames, readSseFrames, replayFrames } from '../dist/index.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function filesIn(dir, pattern) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((f) => pattern.test(f)).sort().map((f) => join(dir, f));
}

const shared = join(ROOT, '../shared/captures');
const files = [
  ...filesIn(join(ROOT, 'fixtures/capture/sse'), /\.sse$/),
  ...filesIn(join(ROOT, 'fixtures/capture/chunks'), /\.chunks\.jsonl$/),
  ...(existsSync(shared) ? readdirSync(shared).flatMap((d) => filesIn(join(shared, d), /\.sse$/)) : []),
];

await initInspection();
const options = { recovery: { proseCeiling: DEFAULT_PROSE_CEILING, tools: null }, ruleSet: compileRuleSet(), mode: 'observe' };

const rows = [];
for (const file of files) {
  const text = createReadStream(file, { encoding: 'utf8' });
  const frames = file.endsWith('.jsonl') ? readJsonlFrames(text) : readSseFrames(text);
  let summary = null;
  const started = process.hrtime.bigint();
  for await (const item of replayFrames(frames, options)) {
    if (item.kind === 'decision' && item.decision.type === 'summary') summary = item.decision;
    if (item.kind === 'decision' && (item.decision.type === 'recovered' || item.decision.type === 'cut')) {
      throw new Error(`${file} is not clean: ${item.decision.type}`);
    }
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  rows.push({ file: file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : `../shared/captures/${basename(dirname(file))}/${basename(file)}`, ...summary, ms });
}

console.log('| capture | API | events | held chars (max) | held events (max) | ms |');
console.log('|---|---|---:|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.file} | ${r.api} | ${r.frames_in} | ${r.max_held_chars} | ${r.max_held_frames} | ${r.ms.toFixed(1)} |`);
const maxChars = Math.max(...rows.map((r) => r.max_held_chars));
const maxFrames = Math.max(...rows.map((r) => r.max_held_frames));
const holding = rows.filter((r) => r.max_held_chars > 0).length;
console.log(`\n${rows.length} clean captures; ${holding} held anything; largest hold: ${maxChars} characters, ${maxFrames} event(s).`);
