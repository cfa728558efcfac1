/**
 * DeepSeek V3.2 / V4 "DSML":
 * `<｜DSML｜function_calls>` (V3.2) or `<｜DSML｜tool_calls>` (V4) holding
 * `<｜DSML｜invoke name="N">` elements, each holding
 * `<｜DSML｜parameter name="K" string="true|false">V</｜DSML｜parameter>` or a JSON object body.
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
const PREFIXES = ['｜｜DSML｜｜', ' | DSML | ', '｜DSML｜', '|DSML|'] as const;

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
  source: 'DeepSeek-V3.2 encoding (https://huggingface.co/deepseek-ai/DeepSeek-V3.2-Exp/tree/main/encoding); DeepSeek V3.2 tools system prompt; sglang deepseekv32_detector.py, deepseekv4_detector.py (docs/sources.md "Per-family grammars")',
  // The container openers too, so a stuttered opener reads as a loop (`degenerate`).
  // the spaced spelling only with its angle bracket: " | DSML | " alone is a Markdown table cell
  markers: ['｜DSML｜', '|DSML|', '< | DSML | ', '</ | DSML | ', ...PREFIXES.flatMap((p) => [`<${p}function_calls>`, `<${p}tool_calls>`])],
  detect: (text) => firstTag(text)?.at ?? -1,
  parse(text, from, ctx): FamilyMatch {
    const prefix = firstTag(text.slice(from, from + 16))?.prefix ?? '｜DSML｜';
    const version = text.startsWith(`<${prefix}tool_calls`, from) ? 'dsml-v4' : 'dsml-v3.2';
    return parseInvokeContainers(text, from, {
      family: version,
      prefix,
      containers: ['function_calls', 'tool_calls'],
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
