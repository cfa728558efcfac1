/**
 * Model families that write another family's grammar, so guard reads them with that family and
 * reports its label (docs/recovery.md, "Server parsers"): no module of their own, these cases pin the
 * reading. Each is written for guard from the grammar its source gives; the property tests cover the
 * layouts through the renderings `ernie4.5` and `exaone4` (hermes.cases.yaml) and `glm47-ling3`
 * (glm.cases.yaml).
 *
 * - ERNIE 4.5 (baidu/ERNIE-4.5-21B-A3B-Thinking and the -PT models): Hermes blocks
 *   `<tool_call>\n{"name", "arguments"}\n</tool_call>\n` after the reasoning's `</think>`; a reply
 *   without a call is wrapped in `<response>…</response>`. Source: vLLM ernie45_tool_parser.py @ 7d8312ef
 *   (docstring "abc\n</think>\n\n\n<tool_call>\ndef\n</tool_call>\n", regex `<tool_call>\s*{…}\s*</tool_call>`)
 *   and FastDeploy's `ernie-x1` parser docs; the model's chat template was not found in the corpus.
 * - EXAONE 4.0 (LGAI-EXAONE/EXAONE-4.0-*): `<tool_call>{"name": "NAME", "arguments": ARGS}</tool_call>`
 *   joined by `\n`, then `[|endofturn|]`; a tool's answer is a `[|tool|]` turn holding
 *   `<tool_result>{"result": …}</tool_result>` (hermes.ts lists both as result tokens). Source: the
 *   EXAONE 4.0 chat_template, quoted in BFCL's handler
 *   https://github.com/ShishirPatil/gorilla/blob/da7f73a806b4f0bdc8f5f6641616fc10e271007a/berkeley-function-call-leaderboard/bfcl_eval/model_handler/local_inference/exaone4_fc.py
 *   (the Hugging Face file itself was not read).
 * - Xiaomi MiMo-V2-Flash: Qwen3-Coder's tags with values inline,
 *   `<tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n</function>\n</tool_call>`. Source:
 *   vLLM mimov2_flash_tool_parser.py @ e3a51261 and sglang mimo_detector.py @ 8100e976 (docstrings);
 *   no MiMo chat template was found. Read by `qwen3-coder`, which removes one framing newline at each
 *   end of a value: a MiMo value that itself starts or ends with a newline loses it (docs/recovery.md).
 *   Removing them only as a pair was tried and dropped: Qwen models close a value early with its
 *   leading framing only (../shared/cases h050), and sglang strips each side alone.
 *   The earlier MiMo models (llama.cpp's "Xiaomi MiMo" format, common/chat.cpp
 *   `common_chat_parse_xiaomi_mimo`, revision not recorded) write Hermes blocks
 *   `<tool_call>\n{"name": "NAME", "arguments": {…}}\n</tool_call>`, read by `hermes`; the MiMo-7B
 *   model card documents no tool-call format.
 * - Ling 3 (inclusionAI): GLM-4.7's grammar; the model may put a newline after the name, go straight
 *   to `<arg_key>`, or close a call with no arguments. Source: sglang ling3_detector.py @ 27dbce0e
 *   (a Glm4MoeDetector subclass) and vLLM ling3_tool_parser.py @ f1dcfb0d (structural tag `glm_4_7`);
 *   no Ling chat template with tools was found (Ling 2.0 / Ring 2.0: none either).
 * - openPangu (vLLM `pangu`): `<|tool_call_start|>[{"name", "arguments"}]<|tool_call_end|>`, LFM2's
 *   tokens and JSON list, so it is labelled `lfm2`; the `[unused11]…[unused12]` spelling of the same
 *   tokens is no known family (`unknown_family`, refused). Source: vLLM pangu_tool_parser.py @ 93b0e1bd.
 */
import { describe, it } from 'vitest';
import { checkCase, type RecoveryCase } from './case-runner.js';

const cases: RecoveryCase[] = [
  {
    id: 'ernie45-after-think',
    source: 'written for guard from the ERNIE 4.5 grammar (vLLM ernie45_tool_parser.py)',
    family: 'hermes',
    tools: ['get_weather'],
    text: 'The user wants today\'s weather in Beijing; call the tool.\n</think>\n\n\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "北京", "unit": "c"}}\n</tool_call>\n',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { location: '北京', unit: 'c' } }],
  },
  {
    id: 'ernie45-two-calls',
    source: 'written for guard from the ERNIE 4.5 grammar',
    family: 'hermes',
    tools: ['get_weather'],
    text: '<tool_call>\n{"name": "get_weather", "arguments": {"location": "Harbin"}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Sanya"}}\n</tool_call>\n',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { location: 'Harbin' } },
      { name: 'get_weather', arguments: { location: 'Sanya' } },
    ],
  },
  {
    id: 'ernie45-truncated',
    source: 'written for guard from the ERNIE 4.5 grammar',
    family: 'hermes',
    tools: ['get_weather'],
    text: '</think>\n\n\n<tool_call>\n{"name": "get_weather", "arguments": {"location": "Harb',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'ernie45-response-no-call',
    source: 'written for guard from the ERNIE 4.5 grammar (a reply without a call)',
    family: '',
    tools: ['get_weather'],
    text: '<response>\nIt is sunny in Beijing, 26 °C.\n</response>',
    expected: 'clean',
    expected_reason: 'no_tags',
  },
  {
    id: 'exaone4-two-calls-endofturn',
    source: 'written for guard from the EXAONE 4.0 chat template',
    family: 'hermes',
    tools: ['get_weather', 'get_time'],
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Seoul"}}</tool_call>\n<tool_call>{"name": "get_time", "arguments": {"timezone": "Asia/Seoul"}}</tool_call>[|endofturn|]',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { city: 'Seoul' } },
      { name: 'get_time', arguments: { timezone: 'Asia/Seoul' } },
    ],
  },
  {
    id: 'exaone4-made-up-result',
    source: 'written for guard from the EXAONE 4.0 chat template (tool turn)',
    family: 'hermes',
    tools: ['get_weather'],
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Busan"}}</tool_call>[|endofturn|]\n[|tool|]\n<tool_result>{"result": "rain"}</tool_result>[|endofturn|]\n[|assistant|]\nIt is raining in Busan.',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'exaone4-truncated',
    source: 'written for guard from the EXAONE 4.0 chat template',
    family: 'hermes',
    tools: ['get_weather'],
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Bus',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'mimo-v2-flash-two-blocks',
    source: 'written for guard from the MiMo-V2-Flash grammar (vLLM mimov2_flash_tool_parser.py)',
    family: 'qwen3-coder',
    tools: ['execute_bash', 'str_replace_editor'],
    text: '<tool_call>\n<function=execute_bash>\n<parameter=command>git status --short</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=str_replace_editor>\n<parameter=command>view</parameter>\n<parameter=path>/repo/README.md</parameter>\n</function>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'execute_bash', arguments: { command: 'git status --short' } },
      { name: 'str_replace_editor', arguments: { command: 'view', path: '/repo/README.md' } },
    ],
  },
  {
    id: 'mimo-llamacpp-hermes-form',
    source: 'written for guard from llama.cpp\'s Xiaomi MiMo format (common_chat_parse_xiaomi_mimo)',
    family: 'hermes',
    tools: ['read_file'],
    text: '<tool_call>\n{"name": "read_file", "arguments": {"path": "notes/todo.md"}}\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'read_file', arguments: { path: 'notes/todo.md' } }],
  },
  {
    id: 'mimo-v2-flash-value-with-one-newline',
    source: 'written for guard: a MiMo value (written inline) that starts with a newline loses it, the known gap (qwen3-coder strips framing on each side alone, as Qwen models close values early: ../shared/cases h050)',
    family: 'qwen3-coder',
    tools: ['write_file'],
    text: '<tool_call>\n<function=write_file>\n<parameter=path>a.txt</parameter>\n<parameter=content>\nindented body</parameter>\n</function>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'indented body' } }],
  },
  {
    id: 'mimo-v2-flash-cut-in-value',
    source: 'written for guard from the MiMo-V2-Flash grammar',
    family: 'qwen3-coder',
    tools: ['execute_bash'],
    text: '<tool_call>\n<function=execute_bash>\n<parameter=command>git log --onel',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'ling3-no-newlines',
    source: 'written for guard from the Ling 3 grammar (sglang ling3_detector.py: GLM-4.5 tags)',
    family: 'glm',
    tools: ['search'],
    schemas: { search: { type: 'object', properties: { query: { type: 'string' }, top_k: { type: 'integer' } } } },
    text: '<tool_call>search<arg_key>query</arg_key><arg_value>West Lake boat hours</arg_value><arg_key>top_k</arg_key><arg_value>5</arg_value></tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'search', arguments: { query: 'West Lake boat hours', top_k: 5 } }],
  },
  {
    id: 'ling3-newline-after-name',
    source: 'written for guard from the Ling 3 grammar',
    family: 'glm',
    tools: ['search'],
    text: '<tool_call>search\n<arg_key>query</arg_key><arg_value>Lingyin temple</arg_value></tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'search', arguments: { query: 'Lingyin temple' } }],
  },
  {
    id: 'ling3-no-arguments',
    source: 'written for guard from the Ling 3 grammar (a call closed with no arguments)',
    family: 'glm',
    tools: ['list_sessions'],
    text: '<tool_call>list_sessions</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'list_sessions', arguments: {} }],
  },
  {
    id: 'ling3-truncated',
    source: 'written for guard from the Ling 3 grammar',
    family: 'glm',
    tools: ['search'],
    text: '<tool_call>search<arg_key>query</arg_key><arg_value>West La',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'pangu-json-list',
    source: 'written for guard from the openPangu grammar (vLLM pangu_tool_parser.py)',
    family: 'lfm2',
    tools: ['get_weather'],
    text: '<|tool_call_start|>[{"name": "get_weather", "arguments": {"city": "Shenzhen"}}]<|tool_call_end|>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Shenzhen' } }],
  },
  {
    id: 'pangu-unused-tokens',
    source: 'written for guard from the openPangu grammar ([unused11]/[unused12] spelling)',
    family: 'unknown',
    tools: ['get_weather'],
    text: '[unused11][{"name": "get_weather", "arguments": {"city": "Shenzhen"}}][unused12]',
    expected: 'refuse',
    expected_reason: 'unknown_family',
  },
];

describe('families that write another family\'s grammar', () => {
  for (const c of cases) it(`${c.id}: ${c.expected} (${c.expected_reason})`, () => checkCase(c, 'mapped-families.test.ts'));
});
