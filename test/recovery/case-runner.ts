/**
 * Test helper: runs one recovery case (a reply text and the verdict the engine must give) and
 * checks every point of the contract: outcome, reason code, family, calls, call ids, reasoning
 * markup, and that a quotation carries no candidate. Shared by the family units
 * (src/recovery/families/*.cases.yaml, test/recovery/families.test.ts) and the engine-level cases
 * (fixtures/recovery/cases.jsonl, test/recovery/cases.test.ts). Not a test file itself.
 */
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { AdvertisedTool, ToolCall } from '../../src/capture/types.js';
import { makeToolCall } from '../../src/capture/toolcall.js';
import { canonicalJson, DEFAULT_PROSE_CEILING, QUOTATION_REASONS, recoverReply, type RecoveryInput } from '../../src/recovery/index.js';

/** One case, as the YAML and JSONL files write it (snake_case). */
export interface RecoveryCase {
  id: string;
  source?: string;
  /** The family label the engine must report ('' for none). */
  family: string;
  tools?: string[];
  advertised_unknown?: boolean;
  schemas?: Record<string, Record<string, unknown>>;
  option_tools?: string[];
  tool_calls?: Array<{ id: string; name: string; arguments: Record<string, unknown> }>;
  reasoning?: string;
  truncated?: boolean;
  expected_reasoning_markup?: boolean;
  text: string;
  expected: 'recover' | 'refuse' | 'quotation' | 'clean';
  expected_reason: string;
  expected_calls?: Array<{ name: string; arguments: Record<string, unknown> }>;
  notes?: string;
}

export function caseInput(c: RecoveryCase, seedPrefix: string): RecoveryInput {
  const advertised: AdvertisedTool[] | null = c.advertised_unknown
    ? null
    : (c.tools ?? []).map((name) => (c.schemas?.[name] ? { name, schema: c.schemas[name] } : { name }));
  const toolCalls: ToolCall[] = (c.tool_calls ?? []).map((t) => makeToolCall(t.id, t.name, 'function', t.arguments));
  return { text: c.text, reasoning: c.reasoning ?? '', advertised, toolCalls, truncated: c.truncated ?? false, idSeed: `${seedPrefix}:${c.id}` };
}

/** `quotation`: refused as fenced, quoted or prose (QUOTATION_REASONS): markup judged a quotation, not a leak. */
const OUTCOME = { recover: 'recovered', refuse: 'refused', quotation: 'refused', clean: 'none' } as const;

/** Runs a case and asserts every point of its verdict. */
export function checkCase(c: RecoveryCase, seedPrefix: string): void {
  const v = recoverReply(caseInput(c, seedPrefix), { proseCeiling: DEFAULT_PROSE_CEILING, tools: c.option_tools ?? null });
  expect({ outcome: v.outcome, reason: v.reason }).toEqual({ outcome: OUTCOME[c.expected], reason: c.expected_reason });
  // The family is reported whenever markup was seen, also beside structured calls and in reasoning.
  expect(v.family).toBe(c.family === '' ? null : c.family);
  expect(v.calls.map((k) => ({ name: k.name, arguments: k.arguments }))).toEqual(c.expected_calls ?? []);
  // Ids follow the documented formula and tell identical calls apart.
  v.calls.forEach((k, i) => {
    const want = createHash('sha256').update(JSON.stringify([`${seedPrefix}:${c.id}`, i, k.name, canonicalJson(k.arguments)])).digest('hex');
    expect(k.id).toBe(`guard_${want.slice(0, 16)}`);
    expect(JSON.parse(k.argumentsRaw)).toEqual(k.arguments);
  });
  expect(new Set(v.calls.map((k) => k.id)).size).toBe(v.calls.length);
  expect(v.reasoningMarkup ?? false).toBe(c.expected_reasoning_markup ?? false);
  // A quotation is refused, but nothing in it is a call another harness would run.
  if (c.expected === 'quotation') expect([QUOTATION_REASONS.has(v.reason), v.candidates]).toEqual([true, []]);
}
