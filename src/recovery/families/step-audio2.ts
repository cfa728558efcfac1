/**
 * StepFun Step-Audio 2: each call a `<tool_call>` block holding the call type, the tool name and
 * its JSON arguments on three lines, `<tool_call>function\nNAME\n{…}</tool_call>`, blocks back to
 * back, text before and after them. Source: no Step-Audio 2 chat template could be read; the grammar
 * is vLLM's step_audio_2_tool_parser.py
 * (https://github.com/vllm-project/vllm/blob/8b1dd2a1f440dbf3172490b88297ab7bd4782183/vllm/tool_parsers/step_audio_2_tool_parser.py:
 * the body split on its first two line breaks into type, name and JSON parameters; its own example
 * `<tool_call>function\nforecast_weather\n{"location": "shanghai"}</tool_call>`).
 *
 * The tags are Hermes's and GLM's: a body that starts `function` and a line break is this family's
 * (GLM's reader refuses it, Hermes's needs JSON right after the opener). Stricter than vLLM, which
 * skips a block whose JSON does not parse: such a block closed by `</tool_call>` is `bad_arguments`,
 * a missing closer `truncated`, a call type other than `function` or a name holding spaces `shape`.
 */

import { callFromJsonText, jsonAt, match, shape, truncated, type Family, type FamilyCall, type FamilyMatch, type FamilyProblem } from '../family.js';
import { Scanner, skipWs } from '../scan.js';

const OPEN = '<tool_call>';
const CLOSE = '</tool_call>';
const HEAD = `${OPEN}function\n`;

/** Reads the block at `o` (which starts with {@link HEAD}). */
function readBlock(sc: Scanner, o: number): { call: FamilyCall; end: number } | { problem: FamilyProblem } {
  const text = sc.text;
  const n = o + HEAD.length;
  const nl = text.indexOf('\n', n);
  if (nl < 0) return { problem: text.indexOf('<', n) >= 0 ? shape('the tool name line does not end') : truncated('the text ends inside the tool name line') };
  const name = text.slice(n, nl);
  if (name === '' || /[\s<>{]/u.test(name)) return { problem: shape('the line after "function" is not a tool name') };
  const j = jsonAt(text, nl + 1, 'arguments', { closer: CLOSE, opener: OPEN });
  if (!j.ok) return { problem: j.problem };
  if (text[j.start] !== '{') return { problem: shape('the arguments are not a JSON object') };
  const e = skipWs(text, j.end);
  if (sc.at(e, CLOSE)) return { call: callFromJsonText(name, text.slice(j.start, j.end)), end: e + CLOSE.length };
  if (e >= text.length || CLOSE.startsWith(text.slice(e))) return { problem: truncated(`the text ends before ${CLOSE}`) };
  return { problem: shape(`text after the arguments before ${CLOSE}`) };
}

export const stepAudio2: Family = {
  id: 'step-audio2',
  source: 'vLLM step_audio_2_tool_parser.py (https://github.com/vllm-project/vllm/blob/8b1dd2a1f440dbf3172490b88297ab7bd4782183/vllm/tool_parsers/step_audio_2_tool_parser.py; no Step-Audio 2 chat template could be read)',
  markers: [HEAD],
  detect: (text) => text.indexOf(HEAD),
  parse(text, from): FamilyMatch {
    const sc = new Scanner(text);
    const spans: Array<[number, number]> = [];
    const calls: FamilyCall[] = [];
    for (let o = text.indexOf(HEAD, from); o >= 0; o = text.indexOf(HEAD, spans[spans.length - 1]![1])) {
      const r = readBlock(sc, o);
      if ('problem' in r) {
        spans.push([o, text.length]);
        return match('step-audio2', spans, calls, r.problem);
      }
      calls.push(r.call);
      spans.push([o, r.end]);
    }
    return match('step-audio2', spans, calls);
  },
};
