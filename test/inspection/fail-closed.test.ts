/** The engine fails closed: a call that cannot be inspected, and a rule that throws, each give an
 * `inspection-error` hit (block) with the call id and the reason; other calls and rules go on. */
import { beforeAll, describe, expect, test } from 'vitest';
import { compileRuleSet, initInspection, inspectCalls, INSPECTION_ERROR_RULE, RuleSetError, type InspectableCall, type Rule, type RuleSet } from '../../src/inspection/index.js';

let rules: RuleSet;
beforeAll(async () => {
  await initInspection();
  rules = compileRuleSet();
});

const bash = (command: string, id = 'call_1'): InspectableCall => ({ id, name: 'Bash', arguments: { command }, argumentsRaw: JSON.stringify({ command }), origin: 'structured' });

const throwing = (where: 'command' | 'path' | 'line'): Rule => ({
  id: `throws-on-${where}`,
  name: `throws on ${where}`,
  category: 'test',
  action: 'record',
  description: 'a rule whose predicate throws',
  help: '',
  examples: { match: [], not_match: [] },
  match: where === 'command' ? { command: () => { throw new TypeError('boom'); } } : where === 'path' ? { path: () => { throw new RangeError('bad path'); } } : { line: () => { throw new Error('bad line'); } },
});

describe('a rule that throws', () => {
  test.each(['command', 'line'] as const)('on a %s predicate: an inspection-error hit naming the call and the rule; the other rules still run', (where) => {
    const set = { rules: [...rules.rules, throwing(where)] };
    const v = inspectCalls([bash('rm -rf /', 'call_42')], set, 'enforce');
    expect(v.outcome).toBe('block');
    expect(v.hits.map((h) => h.rule)).toEqual(['rm-rf-root', 'inspection-error']);
    const err = v.hits.find((h) => h.rule === 'inspection-error')!;
    expect(err).toMatchObject({ action: 'block', category: 'guard', callId: 'call_42', tool: 'Bash' });
    expect(err.excerpt).toContain('call_42');
    expect(err.excerpt).toContain(`rule throws-on-${where} failed`);
  });

  test('on a path predicate of a file tool', () => {
    const set = { rules: [...rules.rules, throwing('path')] };
    const call: InspectableCall = { id: 'w1', name: 'Write', arguments: { file_path: 'a.txt', content: 'x' }, argumentsRaw: '', origin: 'structured' };
    const v = inspectCalls([call], set, 'enforce');
    expect(v.hits.map((h) => [h.rule, h.callId])).toEqual([['inspection-error', 'w1']]);
    expect(v.outcome).toBe('block');
  });

  test('a harmless command with a throwing rule is not a silent pass', () => {
    const v = inspectCalls([bash('ls -la')], { rules: [...rules.rules, throwing('command')] }, 'observe');
    expect(v.outcome).toBe('flag');
    expect(v.hits.map((h) => h.rule)).toEqual(['inspection-error']);
  });
});

describe('a call that cannot be inspected', () => {
  test('its hit carries the call id and the reason, and the other calls are inspected', () => {
    const hostile = new Proxy({}, { ownKeys: () => { throw new Error('no keys for you'); }, get: () => { throw new Error('no value for you'); } });
    const bad: InspectableCall = { id: 'call_bad', name: 'Bash', arguments: hostile as Record<string, unknown>, argumentsRaw: '{}', origin: 'structured' };
    const v = inspectCalls([bad, bash('git push --force origin main', 'call_ok')], rules, 'enforce');
    expect(v.hits.map((h) => [h.rule, h.callId])).toEqual([['inspection-error', 'call_bad'], ['git-force-push', 'call_ok']]);
    expect(v.hits[0]!.excerpt).toMatch(/^call call_bad: inspection failed: Error: no (keys|value) for you$/);
    expect(v.outcome).toBe('block');
  });

  test('arguments the capture could not read (nested too deep) give an inspection-error hit, not a pass', () => {
    const deep: InspectableCall = { id: 'toolu_1', name: 'Bash', arguments: null, argumentsRaw: '', origin: 'structured', unreadable: 'arguments are nested deeper than 512 levels; not read' };
    const v = inspectCalls([deep], rules, 'enforce');
    expect(v.outcome).toBe('block');
    expect(v.hits.map((h) => [h.rule, h.callId])).toEqual([['inspection-error', 'toolu_1']]);
    expect(v.hits[0]!.excerpt).toContain('arguments not read');
  });

  test('re-grading inspection-error is allowed, disabling it is refused', () => {
    const set = compileRuleSet({ actions: { 'inspection-error': 'record' } });
    expect(set.rules.find((r) => r.id === 'inspection-error')?.action).toBe('record');
    expect(() => compileRuleSet({ disabled: ['inspection-error'] })).toThrow(RuleSetError);
    expect(INSPECTION_ERROR_RULE).toMatchObject({ id: 'inspection-error', category: 'guard', action: 'block' });
  });
});
