/**
 * IBM Granite 4.0 writes Hermes's grammar (its chat template renders `content` + "\n" +
 * `<tool_call>\n{"name": …, "arguments": …}\n</tool_call>` per call, joined by "\n"; source:
 * https://huggingface.co/ibm-granite/granite-4.0-micro, chat_template, revision not recorded, read
 * from the GGUF copy in huggingface.js chat-template-automap.ts @ 007948d5, entry
 * `library/granite4:latest`; vLLM's granite4_tool_parser.py @ 055e47c2 reads the same blocks). No
 * family of its own: the `hermes` family reads it, and these cases, written from that template,
 * pin it (docs/recovery.md, "Bare JSON and pythonic families").
 */
import { describe, it } from 'vitest';
import { checkCase, type RecoveryCase } from './case-runner.js';

const source = 'written for guard from the Granite 4.0 chat template';
const cases: RecoveryCase[] = [
  {
    id: 'granite4-content-two-calls',
    source,
    family: 'hermes',
    tools: ['get_weather'],
    text: 'I\'ll check both.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Zurich"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Basel"}}\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { city: 'Zurich' } },
      { name: 'get_weather', arguments: { city: 'Basel' } },
    ],
  },
  {
    id: 'granite4-string-arguments',
    source,
    family: 'hermes',
    tools: ['send_email'],
    text: '<tool_call>\n{"name": "send_email", "arguments": "{\\"to\\": \\"ops@example.com\\", \\"subject\\": \\"Status\\"}"}\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'send_email', arguments: { to: 'ops@example.com', subject: 'Status' } }],
  },
  {
    id: 'granite4-truncated',
    source,
    family: 'hermes',
    tools: ['send_email'],
    text: '<tool_call>\n{"name": "send_email", "arguments": {"to": "ops@exa',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'granite4-unclosed-final',
    source,
    family: 'hermes',
    tools: ['get_weather'],
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Zurich"}}',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
];

describe('Granite 4.0 (read by the hermes family)', () => {
  for (const c of cases) it(`${c.id}: ${c.expected} (${c.expected_reason})`, () => checkCase(c, 'granite4.test.ts'));
});
