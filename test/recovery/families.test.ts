/**
 * The family units: every family of the registry (src/recovery/families/index.ts) has its data file
 * beside its module (<id>.cases.yaml, ./units.ts), every data file names a registered family, and
 * each unit's cases cover the kinds a grammar must answer (a recovered call, a cut, a quotation, an
 * unadvertised name, bad arguments) and pass. The property tests (property.test.ts,
 * adversarial.test.ts) render calls through each unit's `renders`.
 */
import { describe, expect, it } from 'vitest';
import { FAMILIES } from '../../src/recovery/index.js';
import { checkCase } from './case-runner.js';
import { UNITS } from './units.js';

const QUOTATIONS = ['fenced', 'quoted', 'prose'];

describe('the family registry and its units', () => {
  it('every registered family has a unit file, and every unit file a registered family', () => {
    expect(UNITS.map((u) => u.family).sort()).toEqual(FAMILIES.map((f) => f.id).sort());
    for (const u of UNITS) expect(u.file).toBe(`${u.family}.cases.yaml`);
  });
  it('every family names its primary source', () => {
    for (const f of FAMILIES) expect(f.source, f.id).toMatch(/https?:\/\//);
  });
});

describe.each(UNITS.map((u) => [u.family, u] as const))('%s', (_family, unit) => {
  it('has at least one rendering, each with a distinct name', () => {
    expect(unit.renders.length).toBeGreaterThan(0);
  });
  it('has cases of every required kind: recovered, truncated, a quotation, unadvertised, bad arguments', () => {
    const reasons = new Set(unit.cases.map((c) => c.expected_reason));
    for (const r of ['ok', 'truncated', 'unadvertised', 'bad_arguments']) expect(reasons, r).toContain(r);
    expect(QUOTATIONS.some((q) => reasons.has(q))).toBe(true);
  });
  for (const c of unit.cases) {
    it(`${c.id}: ${c.expected} (${c.expected_reason})`, () => checkCase(c, unit.file));
  }
});

it('rendering names are unique across units', () => {
  const names = UNITS.flatMap((u) => u.renders.map((r) => r.name));
  expect(new Set(names).size).toBe(names.length);
});
