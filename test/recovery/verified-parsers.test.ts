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
 * - vLLM `spark3` (Spark3's "XML-KV" calls): GLM's `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>`,
 *   values typed from the tool's schema (a string type raw, `null` as None, otherwise JSON).
 *   Source: vllm/tool_parsers/spark3_tool_parser.py @ 81efe788; no Spark3 template found. Read by `glm`.
 * - vLLM `hyperclovax_seed_think` (HyperCLOVAX-SEED-Think): `[reasoning]</think>\n\n[content]` then
 *   `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>` blocks joined by
 *   `\n`, then `<|im_end|>`; under forced tool choice the JSON list `[{"name", "parameters"}]`.
 *   Source: hyperclovax_seed_think_tool_parser.py @ 256c7019 (its docstring quotes the chat
 *   template's system prompt; the template itself was not read). Read by `glm` (the list bare, `xlam`).
 *   The 14B model's separate parser (hyperclovax_seed_think_14b_tool_parser.py @ 0676dfcb) reads a
 *   JSON list after `<|im_start|>assistant -> tool/function_call\n`, as its template writes it
 *   (`[{"name", "arguments"}]<|im_end|><|stop|>`; vLLM examples/tool_chat_template_hyperclovax_seed_think_14b.jinja
 *   @ 9a525916): read by the family `hyperclovax` (src/recovery/families/hyperclovax.ts, its unit
 *   beside it; it was `unknown_family`).
 * - vLLM `iquest_coder` (iQuest Coder): Qwen3-Coder's XML with a `\n` before and between the
 *   `<tool_call>` blocks (iquest_coder_tool_parser.py @ 059c0b10, a Qwen3CoderToolParser subclass):
 *   `qwen3-coder`. Its V2 (iquest_coder_v2_tool_parser.py @ 2006094d) writes GLM's key/value pairs in
 *   `<iquestcoder_tool_call>…</iquestcoder_tool_call>`: not read, GLM's tokens outside a `<tool_call>`
 *   are `shape`, refused. No iQuest template found.
 * - llama.cpp `cohere2moe` (Cohere2 MoE, "North Code"): `<|START_THINKING|>…<|END_THINKING|>` then
 *   either `<|START_TEXT|>…<|END_TEXT|>` or `<|START_ACTION|>[{"tool_call_id", "tool_name",
 *   "parameters"}]<|END_ACTION|>`, then `<|END_OF_TURN_TOKEN|>` (common/parsers/cohere2moe.cpp @
 *   aabb95e9): Command 4's grammar, read by `command-r7b` (cohere-ai/melody cmd4-v1.tmpl, cited there).
 * - llama.cpp `llm-jp-harmony` (LLM-jp-4.1): gpt-oss's harmony with a space after every special token
 *   (`<|channel|> commentary to=functions.NAME<|message|> {…}`) and parallel calls as consecutive
 *   messages, all but the last closed by `<|end|>` (common/parsers/llm-jp-harmony.cpp @ aabb95e9; no
 *   LLM-jp template found). Read by `harmony`, which takes `<|end|>` as a call's end when another
 *   message follows it (a non-call message after it is `continued`, refused `shape`); the header of a
 *   call it could not finish is grammar (`grammarSpans`), so its spaced words do not make a cut or
 *   broken call read as tokens quoted in a sentence.
 * - vLLM `rwkv` (RWKV): `**Tool Call:**` then a ```` ```json ```` fence holding `{"name", "arguments"}`,
 *   or a legacy `<tool_call>` followed by the JSON on one line and no closer (rwkv_tool_parser.py @
 *   04e47dbe). The labelled fence is RWKV-7 G1's trained format (BlinkDL RWKV7-G1x-templates.txt @
 *   1671ab8d), read by the `rwkv` family (its own cases in rwkv.cases.yaml); a bare ```` ```json ````
 *   fence without the label stays a quotation (`fenced`); the legacy line is Hermes' opener without
 *   its closer, refused `truncated`.
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
  {
    id: 'spark3-typed-values',
    source: 'written for guard from the Spark3 grammar (vLLM spark3_tool_parser.py @ 81efe788)',
    family: 'glm',
    tools: ['book_train'],
    schemas: { book_train: { type: 'object', properties: { from: { type: 'string' }, seats: { type: 'integer' }, window: { type: 'boolean' } } } },
    text: '<tool_call>book_train\n<arg_key>from</arg_key>\n<arg_value>Hefei</arg_value>\n<arg_key>seats</arg_key>\n<arg_value>2</arg_value>\n<arg_key>window</arg_key>\n<arg_value>true</arg_value>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'book_train', arguments: { from: 'Hefei', seats: 2, window: true } }],
  },
  {
    id: 'spark3-cut-in-value',
    source: 'written for guard from the Spark3 grammar',
    family: 'glm',
    tools: ['book_train'],
    text: '<tool_call>book_train<arg_key>from</arg_key><arg_value>Hef',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'hyperclovax-think-then-two-calls',
    source: 'written for guard from the HyperCLOVAX-SEED-Think grammar (vLLM hyperclovax_seed_think_tool_parser.py @ 256c7019)',
    family: 'glm',
    tools: ['get_weather'],
    reasoning: 'Two cities, two calls.',
    schemas: { get_weather: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
    text: '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Seoul</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Busan</arg_value>\n</tool_call><|im_end|>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { city: 'Seoul', days: 3 } },
      { name: 'get_weather', arguments: { city: 'Busan' } },
    ],
  },
  {
    id: 'hyperclovax-unadvertised',
    source: 'written for guard from the HyperCLOVAX-SEED-Think grammar',
    family: 'glm',
    tools: ['get_weather'],
    text: '<tool_call>send_sms\n<arg_key>to</arg_key>\n<arg_value>010-0000-0000</arg_value>\n</tool_call><|im_end|>',
    expected: 'refuse',
    expected_reason: 'unadvertised',
  },
  {
    id: 'hyperclovax-forced-json-list',
    source: 'written for guard from the HyperCLOVAX-SEED-Think forced-choice form (a JSON list, the parser\'s fallback)',
    family: 'xlam',
    tools: ['get_weather'],
    text: '[{"name": "get_weather", "parameters": {"city": "Incheon"}}]',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Incheon' } }],
  },
  {
    id: 'hyperclovax-14b-after-text',
    source: 'written for guard from the HyperCLOVAX-SEED-Think-14B template (vLLM example copy @ 9a525916; parser @ 0676dfcb)',
    family: 'hyperclovax',
    tools: ['get_weather'],
    text: '\nChecking Daegu.<|im_end|>\n<|im_start|>assistant -> tool/function_call\n[{"name": "get_weather", "arguments": {"city": "Daegu"}}]<|im_end|><|stop|>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Daegu' } }],
  },
  {
    id: 'iquest-coder-framing-newlines',
    source: 'written for guard from the iQuest Coder grammar (vLLM iquest_coder_tool_parser.py @ 059c0b10)',
    family: 'qwen3-coder',
    tools: ['read_file'],
    text: '\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/app.py\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=read_file>\n<parameter=path>\nsrc/db.py\n</parameter>\n</function>\n</tool_call>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'read_file', arguments: { path: 'src/app.py' } },
      { name: 'read_file', arguments: { path: 'src/db.py' } },
    ],
  },
  {
    id: 'iquest-coder-in-inline-code',
    source: 'written for guard from the iQuest Coder grammar (a mention in inline code)',
    family: 'qwen3-coder',
    tools: ['read_file'],
    text: 'The model writes `<tool_call><function=read_file><parameter=path>x</parameter></function></tool_call>` for each file it opens.',
    expected: 'quotation',
    expected_reason: 'quoted',
  },
  {
    id: 'iquest-coder-v2-refused',
    source: 'written for guard from the iQuest Coder V2 grammar (vLLM iquest_coder_v2_tool_parser.py @ 2006094d)',
    family: 'glm',
    tools: ['read_file'],
    text: '<iquestcoder_tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>src/app.py</arg_value>\n</iquestcoder_tool_call>',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'cohere2moe-think-then-action',
    source: 'written for guard from the Cohere2 MoE grammar (llama.cpp common/parsers/cohere2moe.cpp @ aabb95e9)',
    family: 'command-r7b',
    tools: ['search_code'],
    text: '<|START_THINKING|>Find the handler first.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "search_code", "parameters": {"query": "def handle_upload"}}\n]<|END_ACTION|><|END_OF_TURN_TOKEN|>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'search_code', arguments: { query: 'def handle_upload' } }],
  },
  {
    id: 'cohere2moe-text-only',
    source: 'written for guard from the Cohere2 MoE grammar (a text reply: no call)',
    family: '',
    tools: ['search_code'],
    text: '<|START_THINKING|>Nothing to look up.<|END_THINKING|><|START_TEXT|>The handler is in upload.py.<|END_TEXT|><|END_OF_TURN_TOKEN|>',
    expected: 'clean',
    expected_reason: 'no_tags',
  },
  {
    id: 'cohere2moe-cut-list',
    source: 'written for guard from the Cohere2 MoE grammar',
    family: 'command-r7b',
    tools: ['search_code'],
    text: '<|START_THINKING|>Find it.<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": "search_code", "parameters": {"query": "def han',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'llm-jp-spaced-recipient-in-role',
    source: 'written for guard from the LLM-jp-4.1 grammar (llama.cpp common/parsers/llm-jp-harmony.cpp @ aabb95e9)',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> analysis<|message|> The user wants the weather in Sapporo.<|end|><|start|> assistant to=functions.get_weather<|channel|> commentary <|constrain|> json<|message|> {"city": "Sapporo"}<|call|>',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Sapporo' } }],
  },
  {
    id: 'llm-jp-parallel-closed-by-end',
    source: 'written for guard from the LLM-jp-4.1 grammar (parallel calls: all but the last closed by <|end|>)',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> commentary to=functions.get_weather<|message|> {"city": "Sapporo"}<|end|><|start|> assistant<|channel|> commentary to=functions.get_weather<|message|> {"city": "Naha"}',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [
      { name: 'get_weather', arguments: { city: 'Sapporo' } },
      { name: 'get_weather', arguments: { city: 'Naha' } },
    ],
  },
  {
    id: 'llm-jp-end-then-final-refused',
    source: 'written for guard from the LLM-jp-4.1 grammar (<|end|> after a call that no call follows: the model went on)',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> commentary to=functions.get_weather<|message|> {"city": "Sapporo"}<|end|><|start|> assistant<|channel|> final<|message|> It is sunny in Sapporo.<|return|>',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'llm-jp-second-call-unadvertised',
    source: 'written for guard from the LLM-jp-4.1 grammar',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> commentary to=functions.get_weather<|message|> {"city": "Sapporo"}<|end|><|start|> assistant<|channel|> commentary to=functions.drop_table<|message|> {"name": "users"}',
    expected: 'refuse',
    expected_reason: 'unadvertised',
  },
  {
    id: 'llm-jp-second-call-cut',
    source: 'written for guard from the LLM-jp-4.1 grammar',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> commentary to=functions.get_weather<|message|> {"city": "Sapporo"}<|end|><|start|> assistant<|channel|> commentary to=functions.get_weather<|message|> {"city": "Na',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'llm-jp-header-cut',
    source: 'written for guard from the LLM-jp-4.1 grammar (a call header cut before <|message|>; its spaced words are the header\'s)',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|start|> assistant to=functions.get_weather<|channel|> commentary json',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
  {
    id: 'llm-jp-stray-words-after-arguments',
    source: 'written for guard from the LLM-jp-4.1 grammar (words after the arguments where <|call|> or <|end|> belongs)',
    family: 'harmony',
    tools: ['get_weather'],
    text: '<|channel|> commentary to=functions.get_weather<|message|> {"city": "Sapporo"} and then some words',
    expected: 'refuse',
    expected_reason: 'shape',
  },
  {
    id: 'llm-jp-header-narrated',
    source: 'written for guard (a spaced harmony header named inside a sentence stays a quotation)',
    family: 'harmony',
    tools: ['get_weather'],
    text: 'LLM-jp writes <|channel|> commentary to=functions.get_weather<|message|> before the arguments, with a space after each token.',
    expected: 'quotation',
    expected_reason: 'quoted',
  },
  {
    id: 'rwkv-bold-label-fence-recovered',
    source: 'written for guard from the RWKV grammar (RWKV7-G1x-templates.txt @ 1671ab8d; vLLM rwkv_tool_parser.py @ 04e47dbe); before the rwkv family it was refused fenced',
    family: 'rwkv',
    tools: ['get_weather'],
    text: '**Tool Call:**\n```json\n{"name": "get_weather", "arguments": {"city": "Tromsø"}}\n```',
    expected: 'recover',
    expected_reason: 'ok',
    expected_calls: [{ name: 'get_weather', arguments: { city: 'Tromsø' } }],
  },
  {
    id: 'rwkv-bare-json-fence-stays-quotation',
    source: 'written for guard from the RWKV grammar (vLLM also reads a fence with no label; guard does not)',
    family: 'openai-json',
    tools: ['get_weather'],
    text: '```json\n{"name": "get_weather", "arguments": {"city": "Tromsø"}}\n```',
    expected: 'quotation',
    expected_reason: 'fenced',
  },
  {
    id: 'rwkv-legacy-line-refused',
    source: 'written for guard from the RWKV legacy form (<tool_call> and one JSON line, no closer)',
    family: 'hermes',
    tools: ['get_weather'],
    text: '<tool_call>{"name": "get_weather", "arguments": {"city": "Tromsø"}}\n',
    expected: 'refuse',
    expected_reason: 'truncated',
  },
];

describe('parsers verified against guard (docs/recovery.md "Server parsers")', () => {
  it.each(cases.map((c) => [c.id, c] as const))('%s', (_id, c) => checkCase(c, 'verified'));
});
