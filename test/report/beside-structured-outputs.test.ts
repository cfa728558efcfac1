/**
 * Markup beside structured tool calls (guard/leak-beside-structured, from main) in the triage
 * outputs of branch ux: the text report labels it and counts it as its own kind, the Markdown
 * summary has a row for it, the HTML report counts it in its totals and its models × outcome table,
 * and `guard rules show` explains the rule.
 */
import { Chalk } from 'chalk';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Reply } from '../../src/capture/types.js';
import { makeToolCall } from '../../src/capture/toolcall.js';
import { compileRuleSet, initInspection, type RuleSet } from '../../src/inspection/index.js';
import { DEFAULT_PROSE_CEILING } from '../../src/recovery/index.js';
import { findingRules } from '../../src/verdict/catalogue.js';
import { judgedReply, type JudgedReply } from '../../src/verdict/findings.js';
import { judgeReply } from '../../src/verdict/judge.js';
import { SummaryBuilder } from '../../src/verdict/summary.js';
import { HtmlReporter } from '../../src/report/html.js';
import { MarkdownReporter } from '../../src/report/markdown.js';
import type { Reporter } from '../../src/report/reporter.js';
import { TextReporter, VerboseTextReporter } from '../../src/report/text.js';
import { ruleShowRecord } from '../../src/cli/commands/rules.js';

let rules: RuleSet;
beforeAll(async () => {
  await initInspection();
  rules = compileRuleSet();
});

const FILE = 'x.jsonl';
const reply = (text: string): Reply => ({
  source: { file: FILE, line: 1 },
  format: 'guard-reply',
  id: 'r1',
  advertised: [{ name: 'bash' }],
  text,
  reasoning: '',
  toolCalls: [makeToolCall('c1', 'bash', 'function', { command: 'ls' })],
  truncated: false,
});

function judged(): JudgedReply {
  const v = judgeReply(reply('Running it.\n<tool_call>\n{"name": "bash", "arguments": {"command": "echo hi"}}\n</tool_call>'), {
    recovery: { proseCeiling: DEFAULT_PROSE_CEILING },
    ruleSet: rules,
    mode: 'observe',
  });
  return judgedReply(v, { failOn: 'refused', inlineAllow: true, baseline: null }).judged;
}

/** The whole report of one reply written by `make`. */
function run(make: (write: (s: string) => void) => Reporter): string {
  const out: string[] = [];
  const reporter = make((s) => void out.push(s));
  const summary = new SummaryBuilder('refused');
  const j = judged();
  reporter.reply(j);
  summary.addReply(j);
  const f = { file: FILE, formats: ['guard-reply' as const], replies: 1, errors: 0 };
  summary.addFile(f);
  reporter.fileEnd(f);
  reporter.finish(summary.summary);
  return out.join('');
}

const plain = new Chalk({ level: 0 });

describe('markup beside structured calls in the triage outputs', () => {
  it('is its own finding kind', () => {
    expect(judged().findings.map((f) => [f.kind, f.ruleId])).toEqual([['leak-beside-structured', 'guard/leak-beside-structured']]);
  });

  it('text: labelled, failing under --fail-on refused, counted by kind', () => {
    const text = run((w) => new TextReporter(w, plain));
    expect(text).toMatch(/ {2}✗ x\.jsonl:1 {2}r1 - {2}markup beside structured calls hermes {2}left in text {2}bash \{"command": "echo hi"\}/);
    expect(text).toContain('  by kind:      1 reply with markup beside structured calls\n');
    expect(text).toContain('exit 1: 1 reply fails under --fail-on refused');
  });

  it('verbose text: the reply line says so instead of "no leak"', () => {
    const text = run((w) => new VerboseTextReporter(w, plain));
    expect(text).toMatch(/ {4}1: guard-reply {13}markup beside structured calls · 1 tool call \(bash\) · hermes markup structured/);
  });

  it('markdown: a row of the findings table', () => {
    const md = run((w) => new MarkdownReporter(w, { failOn: 'refused' }));
    expect(md).toContain('## ❌ guard: 1 finding in 1 reply of 1 file (1 reply in 1 file scanned)');
    expect(md).toContain('| markup beside structured calls | 1 |');
    expect(md).toContain('guard/leak\\-beside\\-structured');
  });

  it('html: counted in the totals and the models × outcome table', () => {
    const html = run((w) => new HtmlReporter(w, { version: 't', rules: findingRules(rules.rules), failOn: 'refused' }));
    const summary = JSON.parse(/<script type="application\/json" id="guard-summary">(.*?)<\/script>/s.exec(html)![1]!);
    expect(summary.totals.beside_structured).toBe(1);
    expect(summary.models['-']).toEqual({ 'markup beside calls': 1 });
    expect(summary.histogram.series['beside calls']).toBeDefined();
    expect(summary.rule_info['curl-pipe-shell']).toMatchObject({ attack: 'T1059.004', attack_url: 'https://attack.mitre.org/techniques/T1059/004/' });
  });

  it('rules show explains guard/leak-beside-structured', () => {
    const rec = ruleShowRecord('guard/leak-beside-structured', rules, { path: null } as never);
    expect(rec).toMatchObject({ id: 'guard/leak-beside-structured', kind: 'leak-beside-structured', action: null, attack: null });
  });
});
