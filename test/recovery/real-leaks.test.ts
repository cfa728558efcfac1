/**
 * The real leaks: 62 replies whose tool-call markup reached users as visible text, copied from
 * public bug reports (fixtures/recovery/real-leaks.jsonl; each case's thread in `source`, licences
 * and edits in fixtures/SOURCES.md), labelled `recover`, `refuse` or `quotation` by hand. Run
 * through `guard scan` as a user would.
 *
 * What must hold:
 *  - no case labelled `refuse` or `quotation` is recovered, except the label disputes listed in
 *    DISPUTED with the reason guard recovers them;
 *  - every recovered call of a `recover` case has exactly the name and arguments the report shows;
 *  - every case gets a documented reason code;
 *  - the real leaks that still pass as "nothing here" or as a quotation are exactly KNOWN_SILENT:
 *    a new silent one fails this test, and a fixed one must leave the list.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REASON_CODES } from '../../src/recovery/index.js';
import { markupLines } from '../../src/recovery/shape.js';
import { ROOT, ndjson, runGuard } from '../cli/helpers.js';

interface LeakCase {
  id: string;
  family: string;
  source: string;
  tools: string[];
  text: string;
  expected: 'recover' | 'refuse' | 'quotation';
  expected_calls: Array<{ name: string; arguments: Record<string, unknown> }>;
  note: string;
}

const CASES: LeakCase[] = readFileSync(`${ROOT}fixtures/recovery/real-leaks.jsonl`, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as LeakCase);

/** Labelled `refuse`, recovered by guard: where the label asks for knowledge a reply does not hold. */
const DISPUTED: Record<string, string> = {
  'lmstudio-2115-qwen36-elided': 'an argument value reading "..." is text guard cannot tell from a real one; inspection sees the call',
  'adk-5654-deepseek-v3-placeholder': 'a placeholder argument value is well-formed JSON of the advertised tool',
  'agno-3463-qwen25-string-arguments': 'arguments written as a JSON string holding an object are decoded once, as the OpenAI wire format and the Hermes parsers do',
};

/** Real leaks guard still judges "no markup" or a quotation (a blind spot, kept visible here). */
const KNOWN_SILENT = [
  'ollama-13519-llama32-fenced-json', // the whole reply is one ```json fence: a fence is a quotation by design
];

const QUOTATION_REASONS = new Set(['fenced', 'quoted', 'prose']);

interface Verdict {
  outcome: string;
  reason: string;
  calls?: Array<{ name: string; arguments: unknown }>;
}

let verdicts: Map<string, Verdict>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'guard-real-leaks-'));
  const file = join(dir, 'leaks.jsonl');
  writeFileSync(file, CASES.map((c) => JSON.stringify({ tools: c.tools, text: c.text })).join('\n') + '\n');
  const r = await runGuard(['scan', '--format', 'ndjson', '--jobs', '1', file]);
  const records = ndjson(r.stdout).filter((x) => typeof x['line'] === 'number');
  expect(records).toHaveLength(CASES.length);
  verdicts = new Map(records.map((x) => [CASES[(x['line'] as number) - 1]!.id, x['recovery'] as Verdict]));
}, 120_000);

describe('the real leaks of public bug reports', () => {
  it('has 62 cases with distinct ids, each naming its thread', () => {
    expect(CASES).toHaveLength(62);
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
    for (const c of CASES) expect(c.source, c.id).toMatch(/^https:\/\/github\.com\//);
  });

  it('recovers no case labelled refuse or quotation, but the listed disputes', () => {
    const accepted = CASES.filter((c) => c.expected !== 'recover' && verdicts.get(c.id)!.outcome === 'recovered').map((c) => c.id);
    expect(accepted.sort()).toEqual(Object.keys(DISPUTED).sort());
  });

  it('every recovered call of a recover case is exactly the one the report shows', () => {
    const recovered = CASES.filter((c) => c.expected === 'recover' && verdicts.get(c.id)!.outcome === 'recovered');
    expect(recovered.length).toBe(19);
    for (const c of recovered) {
      const calls = verdicts.get(c.id)!.calls!.map((k) => ({ name: k.name, arguments: k.arguments }));
      expect(calls, c.id).toEqual(c.expected_calls);
    }
  });

  it('every case gets a documented reason code', () => {
    for (const c of CASES) expect(REASON_CODES, c.id).toContain(verdicts.get(c.id)!.reason);
  });

  it('the leaks judged "no markup" or a quotation are exactly the known blind spots', () => {
    const silent = CASES.filter((c) => c.expected !== 'quotation')
      .filter((c) => {
        const v = verdicts.get(c.id)!;
        return v.outcome === 'none' || (v.outcome === 'refused' && QUOTATION_REASONS.has(v.reason));
      })
      .map((c) => c.id);
    expect(silent).toEqual(KNOWN_SILENT);
  });

  it('pseudo-markup made of whole lines ([TOOL_CALL] … [/TOOL_CALL]) is an unknown dialect, not a mention (it measured 0.62-0.66 and passed as prose)', () => {
    for (const id of ['hermes-35935-minimax-TOOL_CALL-arrow', 'hermes-11994-TOOL_CALL-skills_list', 'hermes-11994-TOOL_CALL-web_search', 'opencode-16735-antml-escaped']) {
      expect([verdicts.get(id)!.outcome, verdicts.get(id)!.reason], id).toEqual(['refused', 'unknown_family']);
    }
    for (const id of ['opencode-26296-minimax-no-opener', 'hermes-studio-942-minimax-fragment']) {
      expect([verdicts.get(id)!.outcome, verdicts.get(id)!.reason], id).toEqual(['refused', 'shape']);
    }
  });
});

describe('markupLines: the markup-like lines around the tokens of an unreadable envelope', () => {
  it('joins the symbol-dense lines of a pseudo-markup block, and stops at a prose line', () => {
    const text = 'Let me run the test suite for you now.\n[TOOL_CALL]\n{tool => "terminal", args => {\n  --command "echo test"\n}}\n[/TOOL_CALL]';
    const at = text.indexOf('{tool');
    expect(markupLines(text, [[at, at + 5]])).toEqual([[text.indexOf('[TOOL_CALL]'), text.length]]);
  });
  it('leaves a token inside a sentence as it is (the rest of its line is prose)', () => {
    const text = 'The reply starts with <tool_call> and the client sees those tokens as content.\n}}';
    const at = text.indexOf('<tool_call>');
    expect(markupLines(text, [[at, at + 11]])).toEqual([[at, at + 11]]);
  });
  it('does not join a line of words, even with a few symbols (a sentence, not markup)', () => {
    const text = '<invoke name="x">\nThis part, I think, explains what the call does.';
    expect(markupLines(text, [[0, 17]])).toEqual([[0, 17]]);
  });
});
