/**
 * Custom rules: a regular expression (RE2, linear time) or an argv prefix, limited to some tools;
 * re-grading and disabling; the three modes; a catastrophic pattern cannot hang guard.
 */
import { describe, expect, test } from 'vitest';
import { compilePattern, compileRuleSet, initInspection, inspectCalls, RuleSetError, type InspectableCall } from '../../src/inspection/index.js';
import { workCounters, workSince } from '../../src/base/work.js';
import { PATTERN_BUDGET } from '../../src/inspection/pattern.js';

// rule sets are built while the suites are collected
await initInspection();

const call = (name: string, args: Record<string, unknown>): InspectableCall => ({ id: 'c1', name, arguments: args, argumentsRaw: JSON.stringify(args), origin: 'structured' });
const bash = (command: string) => call('bash', { command });

describe('argv prefix rules', () => {
  const rs = compileRuleSet({ custom: [{ id: 'npm-publish', description: 'publishing a package', action: 'block', argv_prefix: ['npm', 'publish'] }] });
  const fires = (c: InspectableCall) => inspectCalls([c], rs, 'observe').hits.some((h) => h.rule === 'npm-publish');

  test.each([
    'npm publish',
    'npm publish --access public',
    'cd pkg && sudo npm publish',
    '/usr/local/bin/npm publish',
    'bash -c "npm publish"',
    'echo $(npm publish)',
    "n''pm publish",
  ])('hits %s', (cmd) => expect(fires(bash(cmd))).toBe(true));

  test.each(['npm pack', 'echo npm publish', 'npm view publish', 'git commit -m "npm publish"', 'npm'])('does not hit %s', (cmd) => expect(fires(bash(cmd))).toBe(false));

  test('hits an argv array tool', () => {
    expect(fires(call('shell', { command: ['npm', 'publish', '--tag', 'next'] }))).toBe(true);
  });

  test('a prefix with a path in its first word compares the whole argv[0]', () => {
    const only = compileRuleSet({ custom: [{ id: 'local-tool', description: 'x', argv_prefix: ['./deploy.sh', 'prod'] }] });
    expect(inspectCalls([bash('./deploy.sh prod')], only, 'observe').hits.map((h) => h.rule)).toEqual(['local-tool']);
    expect(inspectCalls([bash('/opt/deploy.sh prod')], only, 'observe').hits).toEqual([]);
  });
});

describe('regular-expression rules', () => {
  test('flags: i makes the pattern ignore case', () => {
    const rs = compileRuleSet({ custom: [{ id: 'prod-psql', description: 'x', command: String.raw`\bpsql\b.*\bprod\b`, flags: 'i' }] });
    expect(inspectCalls([bash('PSQL -h db.PROD')], rs, 'observe').hits.map((h) => [h.rule, h.excerpt])).toEqual([['prod-psql', 'PSQL -h db.PROD']]);
  });

  test('lookaround and backreferences are refused (RE2 syntax)', () => {
    expect(() => compileRuleSet({ custom: [{ id: 'la', description: 'x', command: 'rm(?! -i)' }, { id: 'br', description: 'x', command: '(a)\\1' }] })).toThrow(RuleSetError);
    try {
      compileRuleSet({ custom: [{ id: 'la', description: 'x', command: 'rm(?! -i)' }, { id: 'br', description: 'x', command: '(a)\\1' }] });
    } catch (err) {
      expect((err as RuleSetError).problems.map((p) => [p.rule, p.pointer, p.message])).toEqual([
        ['la', '/custom/0/command', '`command` pattern does not compile: invalid perl operator: (?!'],
        ['br', '/custom/1/command', '`command` pattern does not compile: invalid escape sequence: \\1'],
      ]);
    }
  });

  test('a nested repetition says that the counts multiply (found by a red-team run: only `{50}` was named)', () => {
    try {
      compileRuleSet({ custom: [{ id: 'nested', description: 'x', command: String.raw`(\w{100}){50}` }] });
      expect.unreachable();
    } catch (err) {
      expect((err as RuleSetError).problems.map((p) => p.message)).toEqual([
        '`command` pattern does not compile: pattern too slow: counted repetitions expand to about 488 KiB of compiled program (budget 32 KiB for a custom pattern); use smaller repetition counts or narrower classes',
      ]);
    }
  });

  test('a slow pattern is refused when the rule set is built, in milliseconds, not after seconds of compiling (found by a red-team run: 3.7 s per start)', () => {
    const started = performance.now();
    try {
      compileRuleSet({ custom: [{ id: 'slow', description: 'x', command: '[a-z]{1,1000}z' }] });
      expect.unreachable();
    } catch (err) {
      expect((err as RuleSetError).problems.map((p) => p.message)).toEqual([
        '`command` pattern does not compile: pattern too slow: counted repetitions expand to about 98 KiB of compiled program (budget 32 KiB for a custom pattern); use smaller repetition counts or narrower classes',
      ]);
    }
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('many patterns each under the per-pattern budget cannot make every start slow: the rule set stops at a total budget (red-team pass of 2026-12-02: 60 such rules took 10-20 s per start)', () => {
    const custom = Array.from({ length: 40 }, (_, i) => ({ id: `slow-${i}`, description: 'x', command: `[a-z]{1,250}z${i}` }));
    const started = performance.now();
    try {
      compileRuleSet({ custom });
      expect.unreachable();
    } catch (err) {
      const messages = (err as RuleSetError).problems.map((p) => p.message);
      expect(messages.length).toBeGreaterThan(0);
      for (const m of messages) expect(m).toMatch(/^`command` pattern not compiled: the custom patterns before it already took \d+ ms to compile and time \(budget 3000 ms for all custom patterns/);
    }
    // the budget, one pattern over it, and the rest refused without compiling
    expect(performance.now() - started).toBeLessThan(PATTERN_BUDGET.totalMs + 2 * PATTERN_BUDGET.compileMs + 1000);
  }, 30_000);

  test('a rule set can be rebuilt forever when the old one is disposed: the regex heap is freed', () => {
    const config = { custom: [{ id: 'mine', description: 'x', command: 'danger[a-z]{1,30}' }] };
    for (let i = 0; i < 1500; i++) compileRuleSet(config).dispose();
    const last = compileRuleSet(config);
    expect(last.rules.find((r) => r.id === 'mine')?.match.text?.find('so dangerous')).toEqual({ start: 3, end: 12 });
  });

  test('a rule set can be rebuilt forever without dispose(), in one synchronous loop: custom patterns fill a heap to a bound, then a fresh one', async () => {
    // round 9: a dropped rule set's patterns are freed only when their finalizer runs, which a
    // synchronous loop never lets happen: 2 528 compiles of this pattern exhausted re2-wasm's
    // 16 MiB heap, and then the first rule set, still in use, failed too
    const { regexHeapsLoaded } = await import('../../src/inspection/pattern.js');
    const config = { custom: [{ id: 'mine', description: 'x', command: 'danger[a-z]{1,30}' }] };
    const first = compileRuleSet(config);
    const heaps = regexHeapsLoaded();
    for (let i = 0; i < 3000; i++) compileRuleSet(config);
    expect(regexHeapsLoaded()).toBeGreaterThan(heaps);
    const last = compileRuleSet(config);
    for (const rs of [first, last]) expect(rs.rules.find((r) => r.id === 'mine')?.match.text?.find('so dangerous')).toEqual({ start: 3, end: 12 });
    expect(inspectCalls([bash('rm -rf /')], first, 'observe').hits.map((h) => h.rule)).toEqual(['rm-rf-root']);
  }, 120_000);

  test('a catastrophic pattern on a 1 MB argument finishes in bounded time', () => {
    const rs = compileRuleSet({
      custom: [
        { id: 'redos', description: 'nested quantifier', command: '(a+)+$' },
        { id: 'redos-b', description: 'nested quantifier, never matches', command: '(a+)+b' },
        { id: 'redos-path', description: 'x', path: '(x+x+)+y' },
      ],
    });
    const big = `${'a'.repeat(1024 * 1024)}!`;
    const before = workCounters();
    const v = inspectCalls([bash(big), call('Write', { file_path: 'x'.repeat(1024 * 1024), content: '' }), { id: 'r', name: 'tool', arguments: null, argumentsRaw: `[${big}`, origin: 'recovered' }], rs, 'observe');
    const w = workSince(before);
    // every character is read (nothing is cut at 64 KiB), so the trailing `!` defeats `(a+)+$`; the
    // 1 MB word is too long to parse as one piece, which is reported
    expect(v.hits.map((h) => [h.rule, h.tool, h.via])).toEqual([['unparsed-command', 'bash', 'shell']]);
    // linear work, not a wall-clock bound (a loaded machine measured 3.1 s against 3 s): every raw
    // pattern, custom ones included, runs over each of the three 1 MB texts a bounded number of times
    const texts = 3 * (big.length + 2);
    const patterns = rs.rules.filter((r) => r.match.raw || r.match.text).length;
    expect(w.rawChars).toBeGreaterThanOrEqual(big.length);
    expect(w.rawChars).toBeLessThanOrEqual(4 * (patterns + Math.ceil(patterns / 8)) * texts);
    const whole = inspectCalls([bash('a'.repeat(1024 * 1024))], rs, 'observe');
    expect(whole.hits.map((h) => [h.rule, h.via])).toEqual([['unparsed-command', 'shell'], ['redos', 'shell']]);
    // the same pattern on JavaScript's backtracking engine would not return in our lifetime on
    // 30 characters; RE2 answers on the whole megabyte directly:
    expect(compilePattern('(a+)+$').find(big)).toBeNull();
  });

  test('groups, escaped parentheses and parentheses in classes keep their meaning (groups are not captured)', () => {
    expect(compilePattern(String.raw`[(]a\(b(c|d)+(?P<n>e)?`).find('x(a(bcdce!')).toEqual({ start: 1, end: 9 });
    expect(compilePattern(String.raw`[]()]+x`).find('a)(]x')).toEqual({ start: 1, end: 5 });
  });

  test('match positions are UTF-16 offsets even after astral characters', () => {
    expect(compilePattern('rm').find('echo 😀😀; rm x')).toEqual({ start: 11, end: 13 });
  });
});

describe('tools', () => {
  const rs = compileRuleSet({
    custom: [{ id: 'secrets-dir-write', name: 'Write under secrets/', description: 'x', tools: ['Write', 'edit'], path: '(^|/)secrets/', examples: { match: ['secrets/a'], not_match: ['src/a'] } }],
  });
  test('a rule limited to tools sees only those (case-insensitively)', () => {
    const ids = (c: InspectableCall) => inspectCalls([c], rs, 'observe').hits.map((h) => h.rule);
    expect(ids(call('Write', { file_path: 'secrets/prod.env', content: 'x' }))).toEqual(['secrets-dir-write']);
    expect(ids(call('Edit', { file_path: 'app/secrets/k', old_string: 'a', new_string: 'b' }))).toEqual(['secrets-dir-write']);
    expect(ids(call('create_file', { path: 'secrets/prod.env', content: 'x' }))).toEqual([]);
    expect(ids(bash('echo x > secrets/prod.env'))).toEqual([]);
  });
});

describe('re-grading, disabling and modes', () => {
  const custom = [{ id: 'npm-publish', description: 'publishing', argv_prefix: ['npm', 'publish'] }];
  const calls = [bash('npm publish && git reset --hard')];

  test('a custom rule defaults to record: observe flags, enforce flags too', () => {
    const rs = compileRuleSet({ custom });
    expect(inspectCalls(calls, rs, 'observe')).toMatchObject({ outcome: 'flag' });
    expect(inspectCalls(calls, rs, 'enforce').outcome).toBe('flag');
    expect(inspectCalls(calls, rs, 'enforce').hits.map((h) => [h.rule, h.action])).toEqual([['git-reset-hard', 'record'], ['npm-publish', 'record']]);
  });

  test('re-graded to block, enforce blocks; observe still only flags; off reports nothing', () => {
    const rs = compileRuleSet({ custom, actions: { 'npm-publish': 'block' } });
    expect(inspectCalls(calls, rs, 'enforce').outcome).toBe('block');
    expect(inspectCalls(calls, rs, 'observe').outcome).toBe('flag');
    expect(inspectCalls(calls, rs, 'off')).toEqual({ mode: 'off', outcome: 'pass', hits: [] });
  });

  test('a built-in re-graded down no longer blocks; disabled rules stay in the catalogue, off', () => {
    const rs = compileRuleSet({ custom, actions: { 'rm-rf-root': 'record' }, disabled: ['git-reset-hard', 'npm-publish'] });
    expect(inspectCalls([bash('rm -rf /')], rs, 'enforce')).toMatchObject({ outcome: 'flag', hits: [{ rule: 'rm-rf-root', action: 'record' }] });
    expect(inspectCalls(calls, rs, 'enforce').hits).toEqual([]);
    expect(rs.catalogue.filter((s) => !s.enabled).map((s) => [s.rule.id, s.source])).toEqual([['git-reset-hard', 'builtin'], ['npm-publish', 'custom']]);
    expect(rs.catalogue.find((s) => s.rule.id === 'rm-rf-root')).toMatchObject({ enabled: true, rule: { action: 'record' } });
  });

  test('duplicate and empty names are refused', () => {
    try {
      compileRuleSet({
        custom: [
          { id: 'a-rule', name: 'Deploy', description: 'x', argv_prefix: ['a'] },
          { id: 'b-rule', name: 'deploy', description: 'x', argv_prefix: ['b'] },
          { id: 'c-rule', name: ' ', description: 'x', argv_prefix: ['c'] },
          { id: 'd-rule', name: 'Recursive delete of /', description: 'x', argv_prefix: ['d'] },
        ],
      });
      expect.unreachable();
    } catch (err) {
      expect((err as RuleSetError).problems.map((p) => [p.rule, p.pointer, p.message])).toEqual([
        ['b-rule', '/custom/1/name', 'duplicate rule name "deploy" (also custom rule a-rule)'],
        ['c-rule', '/custom/2/name', '`name` must be a non-empty string'],
        ['d-rule', '/custom/3/name', 'duplicate rule name "Recursive delete of /" (also built-in rule rm-rf-root)'],
      ]);
    }
  });
});
