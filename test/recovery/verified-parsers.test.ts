/**
 * Server parsers docs/recovery.md ("Server parsers") listed as "not verified", now checked: each
 * model's grammar read from its template (or, where none was found, the parser), and guard's reading
 * pinned here through the engine. No module of their own: the family that reads the grammar reports
 * its label. Every text is written for guard from the grammar; none is another project's test input.
 *
 * - Ollama `nemotron-3-nano` / `nemotron-3.5-nano` (Nemotron 3 / 3.5 Nano): Qwen3-Coder's
 *   `<tool_call>\n<function=NAME>\n<parameter=K>\nV\n</parameter>\n</function>\n</tool_call>\n`,
 *   values `| string` (Python `True`), after `<think></think>`, then `<|im_end|>`. Source: the model
 *   chat templates as copied in ollama/ollama model/renderers/testdata/nemotron3nano_chat_template.jinja2
 *   and nemotron35_chat_template.jinja2 @ fb307609 (the parser model/parsers/nemotron3nano.go hands
 *   the content to its Qwen3CoderParser). Read by `qwen3-coder`.
 * - Ollama `ornith`: the Qwen3.5 renderer and parser (model/renderers/ornith.go, model/parsers/parsers.go
 *   @ fb307609: `Qwen35Parser`, whose tool calls go to `Qwen3CoderParser`): `qwen3-coder`. No model
 *   card or template of an "Ornith" model was found: Ollama's own renderer is the only source.
 * - Ollama `laguna` and `poolside-v1` (Poolside Laguna v2 / v8): GLM's grammar,
 *   `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n</tool_call>\n` (v2) and the
 *   same without line breaks (v8), strings raw and other values `tojson`, a tool's answer in
 *   `<tool_response>…</tool_response>`, the turn closed by `</assistant>`. Source: the templates
 *   copied in ollama/ollama model/renderers/testdata/laguna_v2_chat_template.jinja2 and
 *   laguna_v8_chat_template.jinja2 @ fb307609 ("Iteration on laguna_glm_thinking_v5/v8"). Read by
 *   `glm`, which now takes `<tool_response>` after a call as a made-up result. The Ollama parser's
 *   leniencies (a call wrapped in `<user>…</user>`, a bare JSON object) are not the template's
 *   grammar and are not read as calls.
 * - Ollama `glm-ocr`: GLM-4.7's grammar without line breaks (model/renderers/glmocr.go @ fb307609;
 *   the parser is GLM46Parser with thinking off): `glm`.
 * - SGLang `trinity` (Arcee Trinity): Qwen2.5's Hermes blocks, the detector stripping `<think>` tags
 *   first (python/sglang/srt/function_call/trinity_detector.py @ 2f4ea05f, a Qwen25Detector
 *   subclass): `hermes`; a call written inside `<think>` is not recovered (guard never recovers
 *   reasoning, where sglang would).
 * - SGLang `glm53_flash` (GLM-5.3-Flash; not registered in SGLang's parser enum at the revision
 *   read): its tag form is GLM's grammar (`glm`); its "JSON form" `<tool_call>Weather/get_weather>{…}`
 *   is the detector's own reading with name guessing (display names, a single tool), no template
 *   writes it, and guard refuses it. Source: glm53_flash_detector.py @ 5ed86bd7 (docstring); no
 *   GLM-5.3-Flash template was found.
 * - SGLang `minicpm4_xml` (MiniCPM-4, "V3 schema"; not registered in the parser enum read):
 *   `<function name="N"><param name="K">V</param>…</function>`, a value optionally one CDATA section:
 *   MiniCPM5's grammar, read by `minicpm5`. Source: minicpm4_xml_detector.py @ b844e97b (docstring);
 *   no MiniCPM-4 template with this format was read.
 * - SGLang `berrylm` (BerryLM; unregistered): Qwen3-Coder's XML with framing newlines
 *   (berrylm_detector.py @ 49619a40, docstring; strips one newline at each end): `qwen3-coder`. No
 *   BerryLM template was found.
 * - SGLang `json` / `json_array` (JSONDetector, JsonArrayParser: the output of JSON-schema
 *   constrained decoding, `[{"name", "parameters"}]`, no model's grammar; json_detector.py @ 0acad828):
 *   the bare list is `xlam`, a bare object `llama3-json`, as any bare call is.
 * - SGLang `iquest_q1` (IQuest Q1; unregistered): GLM-4.7's key/value grammar inside
 *   `<iquest_tool_call>…</iquest_tool_call>` (iquest_q1_detector.py @ 3d84681f, a Glm47MoeDetector
 *   subclass). No template found; not read: GLM's tokens outside a `<tool_call>` are `shape`, refused.
 */
import { describe, it } from 'vitest';
import { checkCase, type RecoveryCase } from './case-runner.js';

const nemotronCall = '<tool_call>\n<function=get_weather>\n<parameter=city>\nReykjavík\n</parameter>\n<parameter=metric>\nTrue\n</parameter>\n</function>\n</tool_call>\n';
const weatherSchema = { type: 'object', properties: { city: { type: 'string' }, metric: { type: 'boolean' } } };

const cases: RecoveryCase[] = [
  {
    id: 'nemotron3-nano-after-empty-think',
    source: 'written for guard from the Nemotron 3 Nano template (Ollama testdata copy @ fb307609)',
    family: 'qwen3-coder',
    tools: ['get_weather'],
    schemas: { get_weather: weatherSchema },
    text: `<think></think>${nemotronCall}<|im_end|>\n`,
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Reykjavík', metric: true } }],
  },
  {
    id: 'nemotron3-nano-reasoning-then-two-calls',
    source: 'written for guard from the Nemotron 3 Nano template ("optional reasoning ... BEFORE the function call")',
    family: 'qwen3-coder',
    tools: ['write_file'],
    text: 'I will write both files.\n<tool_call>\n<function=write_file>\n<parameter=path>\na.md\n</parameter>\n<parameter=text>\nline one\nline two\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=write_file>\n<parameter=path>\nb.md\n</parameter>\n<parameter=text>\nthree\n</parameter>\n</function>\n</tool_call>\n',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'write_file', arguments: { path: 'a.md', text: 'line one\nline two' } },
      { name: 'write_file', arguments: { path: 'b.md', text: 'three' } },
    ],
  },
  {
    id: 'nemotron3-nano-truncated',
    source: 'written for guard from the Nemotron 3 Nano template',
    family: 'qwen3-coder',
    tools: ['get_weather'],
    text: '<tool_call>\n<function=get_weather>\n<parameter=city>\nReykj',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'ornith-qwen35-call',
    source: 'written for guard from Ollama\'s Qwen3.5 renderer (model/renderers/qwen35.go, used by ornith)',
    family: 'qwen3-coder',
    tools: ['list_dir'],
    text: '<tool_call>\n<function=list_dir>\n<parameter=path>\n/srv\n</parameter>\n</function>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'list_dir', arguments: { path: '/srv' } }],
  },
  {
    id: 'laguna-v2-newlines',
    source: 'written for guard from the Laguna v2 template (Ollama testdata copy @ fb307609)',
    family: 'glm',
    tools: ['get_weather'],
    schemas: { get_weather: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
    text: '</think>\nChecking the forecast.\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Nairobi</arg_value>\n<arg_key>days</arg_key>\n<arg_value>2</arg_value>\n</tool_call>\n</assistant>\n',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Nairobi', days: 2 } }],
  },
  {
    id: 'laguna-v8-poolside-v1-glued',
    source: 'written for guard from the Laguna v8 template (Ollama poolside-v1; testdata copy @ fb307609)',
    family: 'glm',
    tools: ['read_file'],
    text: '<tool_call>read_file<arg_key>path</arg_key><arg_value>src/main.rs</arg_value></tool_call><tool_call>read_file<arg_key>path</arg_key><arg_value>Cargo.toml</arg_value></tool_call></assistant>\n',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'read_file', arguments: { path: 'src/main.rs' } },
      { name: 'read_file', arguments: { path: 'Cargo.toml' } },
    ],
  },
  {
    id: 'laguna-made-up-tool-response',
    source: 'written for guard from the Laguna templates (a tool message is <tool_response>…</tool_response>)',
    family: 'glm',
    tools: ['get_weather'],
    text: '<tool_call>get_weather<arg_key>city</arg_key><arg_value>Nairobi</arg_value></tool_call><tool_response>24 °C, clear</tool_response>\nIt is 24 °C and clear.',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'laguna-user-wrapped-not-a-call',
    source: 'written for guard (Ollama\'s laguna parser accepts a call inside <user>…</user>; the template never writes one)',
    family: 'glm',
    tools: ['get_weather'],
    text: '<user>get_weather<arg_key>city</arg_key><arg_value>Nairobi</arg_value></user>',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'glm-ocr-glued',
    source: 'written for guard from Ollama\'s GLM-OCR renderer (model/renderers/glmocr.go @ fb307609)',
    family: 'glm',
    tools: ['extract_table'],
    text: '\n<tool_call>extract_table<arg_key>page</arg_key><arg_value>3</arg_value></tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'extract_table', arguments: { page: '3' } }],
  },
  {
    id: 'trinity-after-think',
    source: 'written for guard from the Trinity grammar (sglang trinity_detector.py: Qwen2.5 blocks)',
    family: 'hermes',
    tools: ['search'],
    text: '<think>Search first.</think>\n<tool_call>\n{"name": "search", "arguments": {"q": "tide tables Brest"}}\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'search', arguments: { q: 'tide tables Brest' } }],
  },
  {
    id: 'trinity-call-inside-think',
    source: 'written for guard from the Trinity grammar (sglang strips <think> tags and would read this call)',
    family: 'hermes',
    tools: ['search'],
    text: '<think>Maybe:\n<tool_call>\n{"name": "search", "arguments": {"q": "x"}}\n</tool_call></think>',
    expected: 'refuse',
    expected_reason: 'in_reasoning',
  },
  {
    id: 'glm53-flash-tag-form',
    source: 'written for guard from the GLM-5.3-Flash tag form (sglang glm53_flash_detector.py docstring)',
    family: 'glm',
    tools: ['get_weather'],
    text: '<tool_call>get_weather\n<arg_key>location</arg_key>\n<arg_value>Beijing</arg_value>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { location: 'Beijing' } }],
  },
  {
    id: 'glm53-flash-json-form-refused',
    source: 'written for guard from the detector\'s "JSON form" (a display name before ">", no template writes it)',
    family: 'glm',
    tools: ['get_weather'],
    text: '<tool_call>Weather/get_weather>{"location": "Beijing"}',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'minicpm4-xml-two-params',
    source: 'written for guard from the MiniCPM-4 XML grammar (sglang minicpm4_xml_detector.py docstring)',
    family: 'minicpm5',
    tools: ['get_weather'],
    text: '<function name="get_weather"><param name="city">Chengdu</param><param name="date">2026-12-02</param></function>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Chengdu', date: '2026-12-02' } }],
  },
  {
    id: 'minicpm4-xml-cdata',
    source: 'written for guard from the MiniCPM-4 XML grammar (a CDATA value)',
    family: 'minicpm5',
    tools: ['write_note'],
    text: '<function name="write_note"><param name="text"><![CDATA[two\nlines <b>]]></param></function>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'write_note', arguments: { text: 'two\nlines <b>' } }],
  },
  {
    id: 'berrylm-qwen3-coder-xml',
    source: 'written for guard from the BerryLM grammar (sglang berrylm_detector.py docstring)',
    family: 'qwen3-coder',
    tools: ['get_weather'],
    text: '<tool_call>\n<function=get_weather>\n<parameter=city>\nLima\n</parameter>\n</function>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Lima' } }],
  },
  {
    id: 'sglang-json-array-constrained',
    source: 'written for guard from the constrained-decoding format (sglang json_detector.py docstring)',
    family: 'xlam',
    tools: ['get_weather'],
    text: '[{"name": "get_weather", "parameters": {"city": "Lima"}}, {"name": "get_weather", "parameters": {"city": "Cusco"}}]',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { city: 'Lima' } },
      { name: 'get_weather', arguments: { city: 'Cusco' } },
    ],
  },
  {
    id: 'iquest-q1-refused',
    source: 'written for guard from the IQuest Q1 grammar (sglang iquest_q1_detector.py)',
    family: 'glm',
    tools: ['get_weather'],
    text: '<iquest_tool_call>get_weather<arg_key>city</arg_key><arg_value>Lima</arg_value></iquest_tool_call>',
    expected: 'refuse',
    expected_reason: 'shape',
  },
];

describe('parsers verified against guard (docs/recovery.md "Server parsers")', () => {
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => checkCase(c, 'verified'));
});
