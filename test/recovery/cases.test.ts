/**
 * Table-driven recovery tests over fixtures/recovery/cases.jsonl (one case a line; see
 * fixtures/SOURCES.md). Each case states the expected outcome, the exact reason code, the family
 * and, when recovered, the exact calls.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AdvertisedTool, ToolCall } from '../../src/capture/types.js';
import { makeToolCall } from '../../src/capture/toolcall.js';
import { canonicalJson, DEFAULT_PROSE_CEILING, QUOTATION_REASONS, recoverReply, type RecoveryInput } from '../../src/recovery/index.js';

interface Case {
  id: string;
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
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>;
}

const cases: Case[] = readFileSync(new URL('../../fixtures/recovery/cases.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Case);

function inputOf(c: Case): RecoveryInput {
  const advertised: AdvertisedTool[] | null = c.advertised_unknown
    ? null
    : (c.tools ?? []).map((name) => (c.schemas?.[name] ? { name, schema: c.schemas[name] } : { name }));
  const toolCalls: ToolCall[] = (c.tool_calls ?? []).map((t) => makeToolCall(t.id, t.name, 'function', t.arguments));
  return { text: c.text, reasoning: c.reasoning ?? '', advertised, toolCalls, truncated: c.truncated ?? false, idSeed: `cases.jsonl:${c.id}` };
}

/** `quotation`: refused as fenced, quoted or prose (QUOTATION_REASONS): markup judged a quotation, not a leak. */
const OUTCOME = { recover: 'recovered', refuse: 'refused', quotation: 'refused', clean: 'none' } as const;

describe('recovery cases (fixtures/recovery/cases.jsonl)', () => {
  it('has cases for every family', () => {
    const families = new Set(cases.map((c) => c.family));
    for (const f of ['deepseek-v3', 'deepseek-v3.1', 'dsml-v3.2', 'dsml-v4', 'hermes', 'qwen3-coder', 'glm', 'minimax', 'kimi-k2', 'harmony', 'mistral', 'llama', 'granite', 'unknown']) {
      expect(families, f).toContain(f);
    }
  });

  for (const c of cases) {
    it(`${c.id}: ${c.expected} (${c.expected_reason})`, () => {
      const v = recoverReply(inputOf(c), { proseCeiling: DEFAULT_PROSE_CEILING, tools: c.option_tools ?? null });
      expect({ outcome: v.outcome, reason: v.reason }).toEqual({ outcome: OUTCOME[c.expected], reason: c.expected_reason });
      // The family is reported whenever markup was seen, also beside structured calls and in reasoning.
      expect(v.family).toBe(c.family === '' ? null : c.family);
      expect(v.calls.map((k) => ({ name: k.name, arguments: k.arguments }))).toEqual(c.expected_calls);
      // Ids follow the documented formula and tell identical calls apart.
      v.calls.forEach((k, i) => {
        const want = createHash('sha256').update(JSON.stringify([`cases.jsonl:${c.id}`, i, k.name, canonicalJson(k.arguments)])).digest('hex');
        expect(k.id).toBe(`guard_${want.slice(0, 16)}`);
        expect(JSON.parse(k.argumentsRaw)).toEqual(k.arguments);
      });
      expect(new Set(v.calls.map((k) => k.id)).size).toBe(v.calls.length);
      expect(v.reasoningMarkup ?? false).toBe(c.expected_reasoning_markup ?? false);
      // A quotation is refused, but nothing in it is a call another harness would run.
      if (c.expected === 'quotation') expect([QUOTATION_REASONS.has(v.reason), v.candidates]).toEqual([true, []]);
    });
  }
});
