/**
 * DeepSeek V3.2 / V4 "DSML":
 * `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4) holding
 * `<｜DSML｜invoke name="N">` elements, each holding
 * `<｜DSML｜parameter name="K" string="true|false">V</｜DSML｜parameter>` or a JSON object body.
 * DeepSeek V4.1 (`dsml-v4.1`) writes the same grammar with a space before every tag name and the
 * container renamed: `<｜DSML｜ calls>`, `<｜DSML｜ invoke name="N">`, `<｜DSML｜ parameter …>`,
 * closed by `</｜DSML｜ parameter>` etc., the block after a blank line. Source: the V4.1 encoder
 * (`tool_calls_block_name = " calls"`, `tool_call_tag_name = " invoke"`, `tool_parameter_tag_name =
 * " parameter"`, `tool_calls_template`, `encode_arguments_to_dsml`), "adapted from the DeepSeek-V4.1
 * release reference implementation" in sglang
 * https://github.com/sgl-project/sglang/blob/85f8105f5d2e2e0bdea70ff50cb5449bf9567053/python/sglang/srt/entrypoints/openai/encoding_dsv41.py
 * and its parser deepseekv41_detector.py @ 03783c13 (a DeepSeekV32Detector with the spaced tag
 * names; JSON bodies accepted); the Hugging Face release's encoding/encoding.py itself was not read.
 * Only `calls` is a container with the spaced prefix, and the unspaced containers only without it,
 * so a mixed spelling is `shape`.
 * Sources: DeepSeek V3.2's tools system prompt and renderer (its official location was not
 * recorded) and sglang's deepseekv32_detector.py and deepseekv4_detector.py
 * (https://github.com/sgl-project/sglang/tree/main/python/sglang/srt/function_call);
 * docs/sources.md "Per-family grammars".
 *
 * Typing: `string="true"` keeps the text exactly; `string="false"` must parse as JSON; no `string`
 * attribute → typed from the tool's schema (else a string); any other flag → bad arguments.
 * Values are not trimmed (the renderer writes them unpadded; sglang V3.2's strip is not copied).
 * Marker spellings seen in the wild are read when used consistently: `｜DSML｜`, doubled
 * `｜｜DSML｜｜` (xorbitsai/xagent#806), ASCII `|DSML|` (kittors/deepseek-web-api#11) and ASCII
 * with spaces `< | DSML | tool_calls>` (CherryHQ/cherry-studio#14714, AgentFlocks/flocks#687,
 * NousResearch/hermes-agent#15453: a detokenizer that spaced the bars). Any DSML tag
 * that is not a container opener where a container should start (the CodeAF dialect
 * `<｜DSML｜_web_search>{…}<｜/DSML｜_web_search>`, the fixture of CodeAF's machinery_test.go:
 * docs/sources.md "Origin: CodeAF's MachineryLeak") is `shape`: reported, not recovered.
 */

import type { Family, FamilyMatch } from '../family.js';
import { parseInvokeContainers } from './xml.js';

// Longest first, so the doubled spelling is not read as the single one.
// The V4.1 spelling (a space after the bars) before the bare one: at one offset the first listed wins.
const PREFIXES = ['｜｜DSML｜｜', ' | DSML | ', '｜DSML｜ ', '｜DSML｜', '|DSML| ', '|DSML|'] as const;
const SPACED_CONTAINERS = ['calls'] as const;
const CONTAINERS = ['function_calls', 'tool_calls'] as const;

function firstTag(text: string): { at: number; prefix: string } | null {
  let best: { at: number; prefix: string } | null = null;
  for (const p of PREFIXES) {
    const at = text.indexOf(`<${p}`);
    if (at >= 0 && (best === null || at < best.at)) best = { at, prefix: p };
  }
  return best;
}

export const dsml: Family = {
  id: 'dsml',
  source: 'DeepSeek-V3.2 encoding (https://huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp/tree/main/encoding); DeepSeek V3.2 tools system prompt; sglang deepseekv32_detector.py, deepseekv4_detector.py; DeepSeek V4.1: sglang encoding_dsv41.py @ 85f8105f (adapted from the V4.1 release), deepseekv41_detector.py @ 03783c13 (docs/sources.md "Per-family grammars")',
  // The container openers too, so a stuttered opener reads as a loop (`degenerate`).
  // the spaced spelling only with its angle bracket: " | DSML | " alone is a Markdown table cell
  // V4.1's tags with their space, so the envelope reads `</｜DSML｜ param` (a cut closer) as one word,
  // never as a token followed by the prose word "param" (which made a cut block a sentence: quoted)
  markers: ['｜DSML｜', '|DSML|', '< | DSML | ', '</ | DSML | ', '<｜DSML｜ ', '</｜DSML｜ ', '<|DSML| ', '</|DSML| ', ...PREFIXES.flatMap((p) => (p.endsWith('DSML｜ ') || p.endsWith('DSML| ') ? SPACED_CONTAINERS : CONTAINERS).map((c) => `<${p}${c}>`))],
  detect: (text) => firstTag(text)?.at ?? -1,
  parse(text, from, ctx): FamilyMatch {
    const prefix = firstTag(text.slice(from, from + 16))?.prefix ?? '｜DSML｜';
    const spaced = prefix === '｜DSML｜ ' || prefix === '|DSML| ';
    const version = spaced ? 'dsml-v4.1' : text.startsWith(`<${prefix}tool_calls`, from) ? 'dsml-v4' : 'dsml-v3.2';
    return parseInvokeContainers(text, from, {
      family: version,
      prefix,
      containers: spaced ? SPACED_CONTAINERS : CONTAINERS,
      jsonBody: true,
      mode(attrs) {
        const flag = attrs.get('string');
        if (flag === undefined) return { mode: 'schema' };
        if (flag === 'true') return { mode: 'string' };
        if (flag === 'false') return { mode: 'json' };
        return { mode: 'string', error: `parameter "${attrs.get('name')}" has string="${flag}", neither true nor false` };
      },
    }, ctx);
  },
};
