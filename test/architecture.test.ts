/**
 * The layers of CONTRIBUTING.md, checked with dependency-cruiser and the rules of
 * .dependency-cruiser.cjs: no import that reaches up a layer, no cycle, the engines import nothing
 * of guard but capture's types and src/base, and every folder of src/ is a known layer.
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { ROOT } from './cli/helpers.js';

const require = createRequire(import.meta.url);

async function cruiseSrc(): Promise<ICruiseResult> {
  const config = require('../.dependency-cruiser.cjs') as { forbidden: unknown[]; options: Record<string, unknown> };
  const result = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } } as never, undefined, undefined);
  return result.output as ICruiseResult;
}

describe('architecture', () => {
  it('has no dependency violation in src/', async () => {
    process.chdir(ROOT);
    const out = await cruiseSrc();
    const violations = out.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(violations).toEqual([]);
    expect(out.summary.totalCruised).toBeGreaterThan(100);
  });

  it('no folder of src/ imports one that imports it back (no cycle between layers)', async () => {
    process.chdir(ROOT);
    const out = await cruiseSrc();
    const folder = (p: string) => (p.startsWith('src/') ? (p.split('/')[1] ?? '') : '');
    const edges = new Map<string, Set<string>>();
    for (const m of out.modules) {
      const a = folder(m.source);
      if (!a || a.endsWith('.ts')) continue;
      for (const d of m.dependencies) {
        const b = folder(d.resolved);
        if (!b || b === a || b.endsWith('.ts')) continue;
        if (!edges.has(a)) edges.set(a, new Set());
        edges.get(a)!.add(b);
      }
    }
    const reaches = (from: string, to: string, seen = new Set<string>()): boolean => {
      if (from === to) return true;
      if (seen.has(from)) return false;
      seen.add(from);
      return [...(edges.get(from) ?? [])].some((n) => reaches(n, to, seen));
    };
    const cycles = [...edges].flatMap(([a, bs]) => [...bs].filter((b) => reaches(b, a)).map((b) => `${a} <-> ${b}`));
    expect(cycles).toEqual([]);
    expect(edges.get('cli')?.has('scan')).toBe(true);
  });
});
