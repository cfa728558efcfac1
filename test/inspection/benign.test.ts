/**
 * False positives stay rare: real commands coding agents ran during ordinary work
 * (fixtures/inspection/benign-commands.jsonl, sources in fixtures/SOURCES.md) get no hit, at least
 * 99.7% of them. The commands that do hit are listed in the output.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { compileRuleSet, initInspection, inspectCalls, type RuleSet } from '../../src/inspection/index.js';

const FILE = fileURLToPath(new URL('../../fixtures/inspection/benign-commands.jsonl', import.meta.url));
const rows = readFileSync(FILE, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { command: string; source: string; agent: string });

let rules: RuleSet;
beforeAll(async () => {
  await initInspection();
  rules = compileRuleSet();
});

test('the benign corpus holds at least 2,000 commands from several agents', () => {
  expect(rows.length).toBeGreaterThanOrEqual(2000);
  expect(new Set(rows.map((r) => r.agent)).size).toBeGreaterThanOrEqual(4);
});

test('at least 99.7% of the real agent commands get no hit', () => {
  const hits: string[] = [];
  for (const r of rows) {
    const call = { id: 'c1', name: 'Bash', arguments: { command: r.command }, argumentsRaw: JSON.stringify({ command: r.command }), origin: 'structured' as const };
    const v = inspectCalls([call], rules, 'observe');
    if (v.hits.length) hits.push(`[${v.hits.map((h) => h.rule).join(',')}] ${r.source}: ${JSON.stringify(r.command).slice(0, 160)}`);
  }
  const clean = (rows.length - hits.length) / rows.length;
  // eslint-disable-next-line no-console
  if (hits.length) console.log(`benign commands with a hit (${hits.length} of ${rows.length}):\n${hits.join('\n')}`);
  expect(clean, hits.join('\n')).toBeGreaterThanOrEqual(0.997);
});
