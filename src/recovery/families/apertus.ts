/**
 * Swiss AI Apertus (Apertus-8B/70B-Instruct-2509): `<|tools_prefix|>[{"NAME": ARGS}, …]<|tools_suffix|>`,
 * each entry an object of one member whose key is the tool name; text may precede and follow.
 * Source: no chat template or format document could be read (swiss-ai/apertus-format was not
 * available); the grammar is the one of vLLM's apertus_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/afe7dba8006d62ea9a6cfa05c81e4b14740b73b2/vllm/tool_parsers/apertus_tool_parser.py,
 * its docstring and doctest) and sglang's apertus2509_detector.py. Stricter than vLLM: the suffix is
 * required (vLLM parses a cut list partially), an entry with more than one member is `shape` (vLLM
 * takes the first), nothing after the list is ignored.
 */

import { jsonAt, match, truncated, shape, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';
import { callsFromList } from './call-lists.js';

const PREFIX = '<|tools_prefix|>';
const SUFFIX = '<|tools_suffix|>';

export const apertus: Family = {
  id: 'apertus',
  source: 'vLLM apertus_tool_parser.py (https://github.com/vllm-project/vllm/blob/afe7dba8006d62ea9a6cfa05c81e4b14740b73b2/vllm/tool_parsers/apertus_tool_parser.py; no Apertus chat template could be read); sglang apertus2509_detector.py',
  markers: [PREFIX, SUFFIX],
  detect: (text) => text.indexOf(PREFIX),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    let pos = from;
    for (let o = sc.find(PREFIX, pos); o >= 0; o = sc.find(PREFIX, pos)) {
      const fail = (p: FamilyProblem) => {
        spans.push([o, text.length]);
        return match('apertus', spans, calls, p);
      };
      const j = jsonAt(text, o + PREFIX.length, 'call list', { closer: SUFFIX, opener: PREFIX });
      if (!j.ok) return fail(j.problem);
      const got = callsFromList(text, j, { singleKey: true });
      if ('problem' in got) return fail(got.problem);
      const e = skipWs(text, j.end);
      if (e >= text.length) return fail(truncated(`the text ends before ${SUFFIX}`));
      if (!sc.at(e, SUFFIX)) return fail(shape(`text between the call list and ${SUFFIX}`));
      calls.push(...got.calls);
      pos = e + SUFFIX.length;
      spans.push([o, pos]);
    }
    return match('apertus', spans, calls);
  },
};
