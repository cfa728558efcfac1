/**
 * Table-driven recovery tests over fixtures/recovery/cases.jsonl: the cases of no family (no
 * markup, no text, the shape fallback). A family's own cases sit beside it
 * (src/recovery/families/*.cases.yaml, test/recovery/families.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { checkCase, type RecoveryCase } from './case-runner.js';

const cases: RecoveryCase[] = readFileSync(new URL('../../fixtures/recovery/cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as RecoveryCase);

describe('engine-level recovery cases (fixtures/recovery/cases.jsonl: no family, or the shape fallback)', () => {
  for (const c of cases) {
    it(`${c.id}: ${c.expected} (${c.expected_reason})`, () => checkCase(c, 'cases.jsonl'));
  }
});
