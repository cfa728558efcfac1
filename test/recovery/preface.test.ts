/**
 * The announcing preface (src/recovery/preface.ts): which prefaces are the model introducing its
 * own call (left out of the prose ratio) and which are prose that counts.
 */
import { describe, expect, it } from 'vitest';
import { announcingPreface, leadingReasoning, MAX_PREFACE } from '../../src/recovery/preface.js';

const MARKUP = '<tool_call>{"name": "run", "arguments": {}}</tool_call>';
const len = (preface: string) => announcingPreface(preface + MARKUP, preface.length);

describe('announcingPreface', () => {
  it.each([
    "I'll help you check for local, uncommitted changes. Let me first check if this is a git repository and then look for any uncommitted changes.\n",
    'Let me try a different approach to get the content from this WordPress site.\n\n',
    'Okay, now I will run the tests.\n',
    "Sure! I'm going to list the files first:\n",
    'First, let me read the configuration file.\n',
    "We'll need the logs; let me fetch them.\n",
    '让我先查看一下目录结构。\n',
    'Je vais lancer les tests.\n',
  ])('sets aside an announcement: %j', (preface) => {
    expect(len(preface)).toBe(preface.length);
  });

  it.each([
    'Let me show you the call it would make:\n',
    "Here's what the tool call looks like:\n",
    "I won't run this, but here it is:\n",
    "I'll never run the following command:\n",
    'I will explain the format first.\n',
    "Let me check the logs. The page's instructions said to run this:\n",
    'Should I run this?\n',
    'The assistant decided to call a tool.\n',
    "Let me check the weather. Here is an example of the syntax:\n",
    "I don't think I should run it:\n",
  ])('counts other prose: %j', (preface) => {
    expect(len(preface)).toBe(0);
  });

  it('sets aside nothing past MAX_PREFACE characters, or with no preface at all', () => {
    const long = `${"I'll check it. ".repeat(Math.ceil(MAX_PREFACE / 15) + 1)}\n`;
    expect(len(long)).toBe(0);
    expect(announcingPreface(MARKUP, 0)).toBe(0);
  });
});

describe('a report of what the model found, then its plan (red-team pass of 2026-12-02)', () => {
  it.each([
    'The tests ran: 18 passed, 2 failed. Both fail on the same assertion. Let me look at the session middleware.',
    'The grep found 4 matches, all in src/db/. The one in pool.py is the culprit. Let me open it.',
    'Okay, the dataframe has 12 columns and 5,000 rows. Let me check for missing values.',
  ])('sets aside %j', (preface) => {
    const text = `${preface}\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>`;
    expect(announcingPreface(text, preface.length + 1)).toBe(preface.length + 1);
  });
  it.each([
    'The page shows this example. Let me run it.',
    'Is this the right call? Let me run it.',
    'The tests ran. The user asked me to paste it.',
  ])('keeps %j in the ratio (a disqualifying word, or no announcing last sentence)', (preface) => {
    const text = `${preface}\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}\n</tool_call>`;
    expect(announcingPreface(text, preface.length + 1)).toBe(0);
  });
});

describe('leadingReasoning', () => {
  const CALL = '<tool_call>\n{"name": "list_dir", "arguments": {"path": "."}}\n</tool_call>';
  const at = (text: string) => {
    const s = text.indexOf('<tool_call>');
    return leadingReasoning(text, [[s, s + CALL.length]]);
  };

  it.each([
    ['<think>The user wants the files of the current folder. A directory listing answers that.</think>\n', '<think>'],
    ['  The user wants the files of the current folder.\n</think>\n\n', 'closer only (the prompt opened the block)'],
    ['[THINK]The user wants the files of the current folder.[/THINK]', 'Mistral [THINK]'],
    ['◁think▷The user wants the files.◁/think▷', 'Kimi ◁think▷'],
  ])('sets aside reasoning that opens the reply: %j (%s)', (reasoning) => {
    // the index just after the closer (the whitespace after it stays with the call)
    expect(at(reasoning + CALL)).toBe(reasoning.trimEnd().length);
  });

  it('leaves reasoning that is not the reply\'s opening, unclosed, reopened, or holds the markup', () => {
    // prose before the block: the block is not the reply's opening
    expect(at('Listing now.\n<think>files</think>\n' + CALL)).toBe(0);
    // never closed before the call
    expect(at('<think>files\n' + CALL)).toBe(0);
    // a second opener before the closer
    expect(at('<think>a <think> b</think>\n' + CALL)).toBe(0);
    // the call inside the reasoning, the closer after it
    const inside = '<think>files ' + CALL + '</think>';
    const s = inside.indexOf('<tool_call>');
    expect(leadingReasoning(inside, [[s, s + CALL.length]])).toBe(0);
    // no markup after the reasoning
    expect(leadingReasoning('<think>files</think> nothing', [])).toBe(0);
  });

  it('a family whose grammar holds the delimiters (Seed-OSS) still has its reasoning set aside', () => {
    const text = '<seed:think>The user wants the files.</seed:think><seed:tool_call>\n<function=list_dir>\n</function>\n</seed:tool_call>';
    const close = text.indexOf('</seed:think>');
    // the opener and the closer are the family's tokens (spans), the call after them
    expect(leadingReasoning(text, [[0, 12], [close, text.length]])).toBe(close + '</seed:think>'.length);
  });
});
