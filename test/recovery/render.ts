/**
 * Test helper: renders tool calls in each family's grammar, written from the research note
 * (../shared/research/tool-call-markup.md §B, the section named on each grammar). Used by the
 * per-family tests and the property-based round-trip test. Not a test file itself.
 */

import type { AdvertisedTool, JsonSchema } from '../../src/capture/types.js';

export interface Call {
  name: string;
  args: Record<string, unknown>;
}

export interface Rendered {
  text: string;
  /** UTF-16 index where an optional trailing stop token starts (the text's length when none). A
   * cut before this index leaves the envelope incomplete. */
  requiredEnd: number;
}

export interface Grammar {
  /** The family label the engine reports. */
  label: string;
  /** How values are written: `json` (the whole arguments object as JSON) or `params` (one element
   * per parameter: strings raw, everything else as JSON, typed back from the schema or a flag). */
  values: 'json' | 'params';
  /** Renders the calls; null when the grammar has no way to put several calls in one reply. */
  render(calls: Call[]): Rendered | null;
  /** True when a raw parameter value holds a tag of the dialect itself, so no reader can tell
   * where it ends (the engine must refuse, never cut it short). Only for `params` grammars. */
  ambiguous?(raw: string): boolean;
}

const j = (v: unknown) => JSON.stringify(v);
/** A parameter value as the templates write it: strings raw, everything else JSON (§B.9–B.11). */
export const rawValue = (v: unknown): string => (typeof v === 'string' ? v : j(v));
const whole = (text: string): Rendered => ({ text, requiredEnd: text.length });
const has = (raw: string, tags: string[]) => tags.some((t) => raw.includes(t));

function dsmlGrammar(label: string, container: string): Grammar {
  const P = '｜DSML｜';
  return {
    label,
    values: 'params',
    // §B.3: string="true" keeps the text, string="false" is JSON.
    render: (calls) =>
      whole(
        `<${P}${container}>\n${calls
          .map(
            (c) =>
              `<${P}invoke name="${c.name}">\n${Object.entries(c.args)
                .map(([k, v]) => `<${P}parameter name="${k}" string="${typeof v === 'string'}">${rawValue(v)}</${P}parameter>`)
                .join('\n')}\n</${P}invoke>`,
          )
          .join('\n')}\n</${P}${container}>`,
      ),
    ambiguous: (raw) => has(raw, [`<${P}`, `</${P}`]),
  };
}

function qwenGrammar(label: string, open: string, close: string): Grammar {
  return {
    label,
    values: 'params',
    // §B.9 / §B.12: one "\n" of framing on each side of a value.
    render: (calls) =>
      whole(
        calls
          .map(
            (c) =>
              `${open}\n<function=${c.name}>\n${Object.entries(c.args)
                .map(([k, v]) => `<parameter=${k}>\n${rawValue(v)}\n</parameter>\n`)
                .join('')}</function>\n${close}`,
          )
          .join('\n'),
      ),
    ambiguous: (raw) => has(raw, ['</parameter>', '<parameter=', '<function=', '</function>']),
  };
}

/** Every grammar the engine reads, keyed by a test name. */
export const GRAMMARS: Record<string, Grammar> = {
  'deepseek-v3': {
    label: 'deepseek-v3',
    values: 'json',
    // §B.1
    render: (calls) =>
      whole(
        `<｜tool▁calls▁begin｜>${calls
          .map((c) => `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${c.name}\n\`\`\`json\n${j(c.args)}\n\`\`\`<｜tool▁call▁end｜>`)
          .join('\n')}<｜tool▁calls▁end｜>`,
      ),
  },
  'deepseek-v3.1': {
    label: 'deepseek-v3.1',
    values: 'json',
    // §B.2
    render: (calls) =>
      whole(`<｜tool▁calls▁begin｜>${calls.map((c) => `<｜tool▁call▁begin｜>${c.name}<｜tool▁sep｜>${j(c.args)}<｜tool▁call▁end｜>`).join('')}<｜tool▁calls▁end｜>`),
  },
  'dsml-v3.2': dsmlGrammar('dsml-v3.2', 'function_calls'),
  'dsml-v4': dsmlGrammar('dsml-v4', 'tool_calls'),
  hermes: {
    label: 'hermes',
    values: 'json',
    // §B.8
    render: (calls) => whole(calls.map((c) => `<tool_call>\n${j({ name: c.name, arguments: c.args })}\n</tool_call>`).join('\n')),
  },
  'qwen3-coder': qwenGrammar('qwen3-coder', '<tool_call>', '</tool_call>'),
  'seed-oss': qwenGrammar('qwen3-coder', '<seed:tool_call>', '</seed:tool_call>'),
  'llama3-function': {
    label: 'llama3-function',
    values: 'json',
    // §B.18 (Functionary / Llama 3.1)
    render: (calls) => whole(calls.map((c) => `<function=${c.name}>${j(c.args)}</function>`).join('\n')),
  },
  glm: {
    label: 'glm',
    values: 'params',
    // §B.10 (GLM-4.5 with newlines)
    render: (calls) =>
      whole(
        calls
          .map((c) => `<tool_call>${c.name}\n${Object.entries(c.args).map(([k, v]) => `<arg_key>${k}</arg_key>\n<arg_value>${rawValue(v)}</arg_value>\n`).join('')}</tool_call>`)
          .join('\n'),
      ),
    ambiguous: (raw) => has(raw, ['<arg_key>', '<arg_value>', '</arg_value>']),
  },
  minimax: {
    label: 'minimax',
    values: 'params',
    // §B.11
    render: (calls) =>
      whole(
        `<minimax:tool_call>\n${calls
          .map((c) => `<invoke name="${c.name}">\n${Object.entries(c.args).map(([k, v]) => `<parameter name="${k}">${rawValue(v)}</parameter>\n`).join('')}</invoke>\n`)
          .join('')}</minimax:tool_call>`,
      ),
    ambiguous: (raw) => has(raw, ['<parameter', '<invoke', '</invoke', '</parameter>']),
  },
  'kimi-k2': {
    label: 'kimi-k2',
    values: 'json',
    // §B.4
    render: (calls) =>
      whole(
        `<|tool_calls_section_begin|>${calls
          .map((c, i) => `<|tool_call_begin|>functions.${c.name}:${i}<|tool_call_argument_begin|>${j(c.args)}<|tool_call_end|>`)
          .join('')}<|tool_calls_section_end|>`,
      ),
  },
  harmony: {
    label: 'harmony',
    values: 'json',
    // §B.5: `<|call|>` is a stop token, often not printed, so the last one is optional.
    render: (calls) => {
      const text = calls.map((c) => `<|start|>assistant<|channel|>commentary to=functions.${c.name} <|constrain|>json<|message|>${j(c.args)}<|call|>`).join('');
      return { text, requiredEnd: text.length - '<|call|>'.length };
    },
  },
  mistral: {
    label: 'mistral',
    values: 'json',
    // §B.7 v13+: `[TOOL_CALLS]` repeated per call.
    render: (calls) => whole(calls.map((c) => `[TOOL_CALLS]${c.name}[ARGS]${j(c.args)}`).join('')),
  },
  'mistral-list': {
    label: 'mistral',
    values: 'json',
    // §B.7 v0.3 / v7
    render: (calls) => whole(`[TOOL_CALLS] ${j(calls.map((c) => ({ name: c.name, arguments: c.args })))}`),
  },
  llama: {
    label: 'llama',
    values: 'json',
    // §B.6: one custom-tool call after `<|python_tag|>`; several are a serving convention (";"), not read.
    render: (calls) => (calls.length === 1 ? whole(`<|python_tag|>${j({ name: calls[0]!.name, parameters: calls[0]!.args })}`) : null),
  },
  llama4: {
    label: 'llama4',
    values: 'json',
    // §B.6 (Llama 4)
    render: (calls) => whole(calls.map((c) => `<|python_start|>${j({ name: c.name, parameters: c.args })}<|python_end|>`).join('')),
  },
  granite: {
    label: 'granite',
    values: 'json',
    // §B.13 (Granite 3.0)
    render: (calls) => whole(`<|tool_call|>${j(calls.map((c) => ({ name: c.name, arguments: c.args })))}`),
  },
};

/** The JSON Schema type of a value, for typing per-parameter families. */
function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isSafeInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Advertised tools for the calls, each with a schema whose property types match the values. */
export function advertisedFor(calls: Call[]): AdvertisedTool[] {
  const tools = new Map<string, JsonSchema>();
  for (const c of calls) {
    const props = (tools.get(c.name)?.['properties'] ?? {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(c.args)) props[k] = { type: typeOf(v) };
    tools.set(c.name, { type: 'object', properties: props });
  }
  return [...tools].map(([name, schema]) => ({ name, schema }));
}
