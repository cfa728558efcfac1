/**
 * Issue 18, points 7 and 8: `guard rules show ID` explains a rule (description, why it is
 * dangerous, examples that hit and near misses, action, category, ATT&CK technique when the rule
 * has one); docs/rules.md has a section per rule, which SARIF's helpUri names; shell completion
 * scripts for bash, zsh and fish, and the candidates they ask for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { BUILTIN_RULES } from '../../src/inspection/index.js';
import { ruleAnchor, ruleLinks } from '../../src/cli/version.js';
import { ruleReference, RULE_REFERENCE_END, RULE_REFERENCE_START } from '../../src/cli/rule-docs.js';
import { findingRules } from '../../src/verdict/catalogue.js';
import { ROOT, runGuard } from './helpers.js';

describe('guard rules show', () => {
  it('explains a built-in rule: description, why, examples, action, category, ATT&CK, documentation', async () => {
    const r = await runGuard(['rules', 'show', 'curl-pipe-shell']);
    expect(r.code).toBe(0);
    const rule = BUILTIN_RULES.find((x) => x.id === 'curl-pipe-shell')!;
    expect(r.stdout.split('\n')[0]).toMatch(/^curl-pipe-shell\b/);
    expect(r.stdout).toContain(rule.description.slice(0, 30));
    expect(r.stdout).toContain('  category:  remote-exec\n');
    expect(r.stdout).toContain('  action:    block (blocks the reply under --mode enforce)\n');
    expect(r.stdout).toMatch(/ {2}ATT&CK: {4}(T\d{4}(\.\d{3})? https:\/\/attack\.mitre\.org\/techniques\/\S+|none fits)\n/);
    expect(r.stdout).toContain('Why it is dangerous, and what to do about a hit:\n');
    expect(r.stdout).toContain(`Examples that hit:\n  ✗ ${rule.examples.match[0]}`);
    expect(r.stdout).toContain(`Near misses (do not hit):\n  ✓ ${rule.examples.not_match[0]}`);
    expect(r.stdout).toContain('Documentation: https://github.com/guard-dev/guard/blob/main/docs/rules.md#curl-pipe-shell');
  });

  it('writes JSON that fits its schema, for built-in, leak and custom rules', async () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schema/rules-show.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);
    for (const id of ['rm-rf-home', 'guard/leak-refused/truncated', 'guard/leak-recovered', 'prod-psql']) {
      const r = await runGuard(['rules', 'show', id, '-f', 'json', '-c', 'fixtures/inspection/config/valid.yaml']);
      expect(r.code, id).toBe(0);
      const rec = JSON.parse(r.stdout);
      expect(validate(rec), JSON.stringify(validate.errors)).toBe(true);
      expect(rec.id).toBe(id);
    }
    const custom = JSON.parse((await runGuard(['rules', 'show', 'prod-psql', '-f', 'json', '-c', 'fixtures/inspection/config/valid.yaml'])).stdout);
    expect(custom).toMatchObject({ source: 'fixtures/inspection/config/valid.yaml', kind: 'rule-hit', help_uri: null });
  });

  it('an unknown id is exit 2 with a hint', async () => {
    const r = await runGuard(['rules', 'show', 'curl-pipe']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('guard: no rule with id "curl-pipe" (did you mean curl-pipe-shell?)');
  });
});

describe('rule documentation', () => {
  it('docs/rules.md holds the generated rule reference (npm run docs:rules)', () => {
    const doc = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
    const start = doc.indexOf(RULE_REFERENCE_START);
    const end = doc.indexOf(RULE_REFERENCE_END);
    expect(start).toBeGreaterThan(0);
    expect(doc.slice(start, end + RULE_REFERENCE_END.length + 1)).toBe(ruleReference());
  });

  it('has a section for every rule a finding can name, at the anchor helpUri uses', () => {
    const doc = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8');
    const headings = new Set([...doc.matchAll(/^### (.+)$/gm)].map((m) => ruleAnchor(m[1]!)));
    for (const r of findingRules(BUILTIN_RULES)) {
      expect(headings.has(ruleAnchor(r.id)), r.id).toBe(true);
      expect(ruleLinks()!.helpUri(r.id)).toBe(`https://github.com/guard-dev/guard/blob/main/docs/rules.md#${ruleAnchor(r.id)}`);
    }
    expect(ruleAnchor('guard/leak-refused/prose')).toBe('guardleak-refusedprose');
  });
});

describe('guard completion', () => {
  it.each(['bash', 'zsh', 'fish'])('prints a %s completion script that asks guard for the candidates', async (shell) => {
    const r = await runGuard(['completion', shell]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('guard complete --');
    if (shell === 'bash') expect(r.stdout).toContain('complete -F __guard_complete guard');
    if (shell === 'zsh') expect(r.stdout.startsWith('#compdef guard')).toBe(true);
    if (shell === 'fish') expect(r.stdout).toContain('complete -c guard');
  });

  it('completes commands, subcommands, options and their choices', async () => {
    const words = async (...args: string[]) => (await runGuard(['complete', '--', ...args])).stdout.split('\n').map((l) => l.split('\t')[0]);
    expect(await words('sc')).toContain('scan');
    expect(await words('rules', '')).toEqual(expect.arrayContaining(['list', 'show', 'test', 'check']));
    expect(await words('scan', '--fo')).toEqual(expect.arrayContaining(['--format']));
    expect(await words('scan', '--format', '')).toEqual(expect.arrayContaining(['text', 'json', 'sarif', 'html', 'markdown', 'github']));
    expect(await words('scan', '--fail-on', '')).toEqual(expect.arrayContaining(['quoted', 'refused', 'flag', 'block', 'none']));
  });
});
