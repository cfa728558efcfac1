/**
 * Every built-in rule against its own examples and against the vectors of
 * its vector file beside the rule module (src/inspection/rules/*.vectors.yaml; the first vectors were
 * copied from the project's real cases, see fixtures/SOURCES.md),
 * each run as a decoded `command` string, as a Codex argv `["bash","-lc",v]`, and, for rules with a
 * raw pattern, through the raw fallback (`arguments: null`, JSON text only; entries marked
 * `raw: miss` need the parser). Whole-call entries (file tools, code tools, argument shapes) run as
 * written (test/inspection/vectors.ts).
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { BUILTIN_RULES, compileRuleSet, initInspection, inspectCalls, type InspectableCall, type RuleSet } from '../../src/inspection/index.js';
import { callOf, commandOf, labelOf, rawCatches, VECTOR_FILES, vectorFileOf, vectors, type VectorEntry } from './vectors.js';

let rules: RuleSet;
beforeAll(async () => {
  await initInspection();
  rules = compileRuleSet();
});

const shapes: Record<string, (v: string) => InspectableCall> = {
  decoded: (v) => ({ id: 'call_1', name: 'Bash', arguments: { command: v }, argumentsRaw: JSON.stringify({ command: v }), origin: 'structured' }),
  argv: (v) => ({ id: 'call_1', name: 'shell', arguments: { command: ['bash', '-lc', v] }, argumentsRaw: JSON.stringify({ command: ['bash', '-lc', v] }), origin: 'structured' }),
  // a stray closing brace: not JSON, and not JSON cut short either, so only the raw fallback reads it
  raw: (v) => ({ id: 'call_1', name: 'Bash', arguments: null, argumentsRaw: `${JSON.stringify({ command: v })}}`, origin: 'recovered' }),
};
const ruleIds = (call: InspectableCall) => inspectCalls([call], rules, 'observe').hits.map((h) => h.rule);

test('the built-in rules load, with unique kebab-case ids and examples of both kinds', () => {
  expect(() => compileRuleSet()).not.toThrow();
  expect(BUILTIN_RULES.length).toBeGreaterThan(0);
  const ids = BUILTIN_RULES.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const r of BUILTIN_RULES) {
    expect(r.id).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    expect(['block', 'record']).toContain(r.action);
    expect(r.examples.match.length).toBeGreaterThan(0);
    expect(r.examples.not_match.length).toBeGreaterThan(0);
    expect(r.description.length).toBeGreaterThan(10);
  }
});

test('every built-in rule has vectors of both kinds, and every vector names a built-in rule', () => {
  expect(Object.keys(vectors).sort()).toEqual(BUILTIN_RULES.map((r) => r.id).sort());
  for (const r of BUILTIN_RULES) {
    expect(vectors[r.id]!.match?.length ?? 0, r.id).toBeGreaterThan(0);
    expect(vectors[r.id]!.not_match?.length ?? 0, r.id).toBeGreaterThan(0);
  }
});

test('a rule\'s vectors sit beside its module (<module>.vectors.yaml)', async () => {
  const modules = VECTOR_FILES.map((f) => f.replace(/\.vectors\.yaml$/, ''));
  for (const m of modules) {
    const mod = (await import(`../../src/inspection/rules/${m}.ts`)) as Record<string, unknown>;
    const ids = Object.values(mod).flatMap((v) => (Array.isArray(v) ? v : [])).filter((r): r is { id: string } => typeof (r as { id?: unknown })?.id === 'string').map((r) => r.id);
    for (const id of ids) expect(vectorFileOf.get(id), id).toBe(`${m}.vectors.yaml`);
  }
});

describe.each(BUILTIN_RULES.map((r) => [r.id, r] as const))('%s', (id, rule) => {
  test.each(rule.examples.match)('own example matches: %s', (v) => {
    expect(ruleIds(shapes.decoded!(v))).toContain(id);
  });
  test.each(rule.examples.not_match)('own near miss does not: %s', (v) => {
    expect(ruleIds(shapes.decoded!(v))).not.toContain(id);
  });
  const entries = (list: VectorEntry[] | undefined) => (list ?? []).map((e) => [labelOf(e), e] as const);
  const commands = (list: VectorEntry[] | undefined) => entries(list).filter(([, e]) => commandOf(e) !== null);
  for (const shape of ['decoded', 'argv'] as const) {
    test.each(commands(vectors[id]?.match))(`${shape}: positive vector hits: %s`, (_l, e) => {
      expect(ruleIds(shapes[shape]!(commandOf(e)!))).toContain(id);
    });
    test.each(commands(vectors[id]?.not_match))(`${shape}: near miss does not hit: %s`, (_l, e) => {
      expect(ruleIds(shapes[shape]!(commandOf(e)!))).not.toContain(id);
    });
  }
  const calls = (list: VectorEntry[] | undefined) => entries(list).filter(([, e]) => callOf(e) !== null);
  if (calls(vectors[id]?.match).length) {
    test.each(calls(vectors[id]?.match))('call: positive vector hits: %s', (_l, e) => {
      expect(ruleIds(callOf(e)!)).toContain(id);
    });
  }
  if (calls(vectors[id]?.not_match).length) {
    test.each(calls(vectors[id]?.not_match))('call: near miss does not hit: %s', (_l, e) => {
      expect(ruleIds(callOf(e)!)).not.toContain(id);
    });
  }
  if (rule.match.raw) {
    const caught = commands(vectors[id]?.match).filter(([, e]) => rawCatches(e));
    test.each(caught)('raw fallback: positive vector hits, labelled raw: %s', (_l, e) => {
      const { hits } = inspectCalls([shapes.raw!(commandOf(e)!)], rules, 'observe');
      expect(hits.find((h) => h.rule === id)?.via).toBe('raw');
    });
  }
});

test('the raw fallback cannot tell quoted data from a command: exactly the quote-dependent near misses hit', () => {
  const falseHits: string[] = [];
  for (const r of BUILTIN_RULES) {
    if (!r.match.raw) continue;
    for (const e of vectors[r.id]?.not_match ?? []) {
      const v = commandOf(e);
      if (v !== null && ruleIds(shapes.raw!(v)).includes(r.id)) falseHits.push(`${r.id}: ${v}`);
    }
  }
  expect(falseHits).toEqual([
    // a quoted heredoc body and a printed string: data to the parser, text to the raw fallback
    "rm-rf-root: cat <<'EOF'\n$(rm -rf /)\nEOF",
    'rm-rf-root: python3 -c "print(\'rm -rf /\')"',
    'rm-rf-root: grep -rn "rm -rf /" docs/',
    // the words `rm -rf /` as arguments of echo, through a function: data to the parser, text to the raw fallback
    'rm-rf-root: f() { echo "$@"; }; f rm -rf /',
    'mkfs-or-wipe: echo "mkfs.ext4 /dev/sdb1" >> runbook.md',
    "fork-bomb: echo ':(){ :|:& };:' > fork-bomb-explained.txt",
    'cloud-metadata-access: grep -rn 169.254.169.254 docs/',
    "domain-enumeration: grep -rn 'Get-ADUser' scripts/",
  ]);
});
