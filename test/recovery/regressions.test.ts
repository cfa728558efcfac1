/**
 * Bugs testers reported against the recovery engine, each pinned with the input that showed it and
 * fixed by its kind (the neighbouring inputs of the same kind are checked too).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, FAMILIES, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';
import { runGuard, ROOT } from '../cli/helpers.js';

const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
const judge = (text: string, tools: string[] = ['bash'], truncated = false): RecoveryVerdict =>
  recoverReply({ text, advertised: tools.map((name) => ({ name })), toolCalls: [], truncated, idSeed: 't:1' }, opts);
const brief = (v: RecoveryVerdict) => [v.outcome, v.reason, v.family];

describe('inline code makes the markup inside it a quotation, for every family', () => {
  it('"Use `<tool_call>` tags like this." is quoted inline code, not a cut GLM leak (fixtures/bad-input line 2)', () => {
    const v = judge('Use `<tool_call>` tags like this.');
    expect(brief(v)).toEqual(['none', 'quoted', 'glm']);
    expect(v.detail).toBe('the glm markup is quoted (inside backticks (inline code))');
    const line2 = readFileSync(`${ROOT}fixtures/bad-input/guard-reply/replies.synthetic.jsonl`, 'utf8').split('\n')[1]!;
    const rec = JSON.parse(line2) as { text: string; label: string };
    expect(rec.label).toBe('quotation');
    expect(judge(rec.text, []).reason).toBe('quoted');
  });

  it('the tester\'s record through the CLI: quoted, exit 0', async () => {
    const r = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: '{"tools":["bash"],"text":"Use `<tool_call>` tags like this."}\n' });
    expect(r.code).toBe(0);
    const rec = JSON.parse(r.stdout.trim().split('\n')[0]!) as { recovery: { outcome: string; reason: string } };
    expect([rec.recovery.outcome, rec.recovery.reason]).toEqual(['none', 'quoted']);
  });

  // Every token of every family, alone in backticks, in positions where neither the in-sentence
  // rule nor the prose ratio decides: only the inline code can make it a quotation.
  const tokens = [...new Set(FAMILIES.flatMap((f) => f.markers)), '<tool_call>', '<function=bash>', '<|start|>assistant<|channel|>commentary to=functions.bash<|message|>'];
  const frames = ['Use `@` tags like this.', 'Use `@`', '`@` starts a call.', '`@`', 'Use ``@`` tags.', 'The opener:\n`@`\nthen the JSON.'];
  it.each(tokens)('%s in backticks is quoted inline code', (token) => {
    for (const frame of frames) {
      const v = judge(frame.replace('@', token));
      expect([v.reason, v.detail.endsWith('(inside backticks (inline code))')], frame).toEqual(['quoted', true]);
    }
  });

  it('a cut leak with backticks in its arguments is still a refused leak (runs inside it pair among themselves)', () => {
    const v = judge('I will run it.\n<tool_call>{"name": "bash", "arguments": {"command": "echo `date` and `');
    expect(brief(v)).toEqual(['refused', 'truncated', 'hermes']);
  });

  it('an inline code span does not cross a blank line', () => {
    const v = judge('Odd ` tick in a paragraph.\n\n<tool_call>{"name": "bash", "arguments": {"command": "echo `');
    expect(brief(v)).toEqual(['refused', 'truncated', 'hermes']);
  });
});
