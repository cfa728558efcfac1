/**
 * An announcing preface: the sentences an agent writes before its call to say what it is about to
 * do ("I'll check the repository status. Let me look for uncommitted changes first."). Such prose
 * is the model's own voice introducing its own call, the opposite of a quotation, so the prose
 * ratio does not count it (./judge.ts): a two-sentence preface before a short call measured 0.55
 * and a real GLM leak passed as a quotation (agno-agi/agno#5106).
 *
 * A preface is set aside when its last sentence announces and the sentences before it are plain
 * reports of what the model found (no disqualifying word: "The tests ran: 2 failed. Let me open
 * the log."; a negation only where the report does not point at the markup: "The API isn't
 * responding. Let me check the server file."), and only when nothing frames the markup (the framing vocabulary, ./framing/, is
 * read first and wins). A sentence announces when it
 * opens with a first-person future or a "let me" in the model's voice, holds no negation, and
 * names no act of showing or explaining (a quotation is introduced by "let me show you the
 * syntax"; a call by "let me check the logs").
 */

/** Characters of preface read at most: a longer introduction is prose, whatever it says. */
export const MAX_PREFACE = 600;

import { ACTING_ING } from './framing/en.js';

/** How an announcing sentence opens (after optional interjections), by language. */
const OPENERS: readonly RegExp[] = [
  // en: a gerund of acting, the model narrating its act as it starts it ("Deleting the work directory as requested:",
  // "Per your instructions, removing the folder:"), after optional interjections and an opening clause of reason
  new RegExp(`^(?:(?:ok(?:ay)?|alright|all right|sure|great|got it|understood|perfect|good|now|next|then|so|and|first)[,!.:;]?\\s+)*(?:(?:per|as|since|because|given|following) [^,.:;!?\\n]{1,80},\\s+)?${ACTING_ING}\\b`, 'i'),
  // en: I'll, I will, I am going to, I need to, let me, let's, we'll, now I'll, first, I'll
  /^(?:(?:ok(?:ay)?|alright|all right|sure|great|got it|understood|perfect|good|now|first(?:ly)?|next|then|so|and|alright then)[,!.:;]?\s+)*(?:i(?:'ll| will| am going to|'m going to| need to| should| want to| have to| must| can now)|let me|let's|let us|we(?:'ll| will| need to| should| can)|i'm (?:now )?(?:going to|checking|looking|running|reading|searching|listing|fetching|opening|starting))\b/i,
  // zh: 让我, 我来, 我将, 我会, 我先, 首先我, 现在我, 接下来我; and the agents' "(由于/为了 …，)这里直接使用/调用 工具…"
  // (a reason clause, then "here I use / call the tool": Langchain-Chatchat#2836)
  /^(?:(?:由于|因为|为了)[^。！？]{0,80}[，,])?(?:好的|好|嗯|现在|首先|接下来|然后|这里|下面)?[，,。]?(?:直接)?(?:让我|我来|我将|我会|我先|我需要|我要|使用|调用|我使用|我调用)/u,
  // fr, de, es, pt, ru, ja
  /^(?:je vais|laisse(?:z)?-moi|ich werde|lass(?:en sie)? mich|voy a|déjame|dejame|vou |deixe-me|давайте|сейчас я|я (?:сейчас |сначала )?(?:проверю|посмотрю|выполню|запущу)|まず|では)/iu,
];

/** Words that make a sentence something other than an announcement of the model's own act. */
const DISQUALIFIERS =
  /示例|例子|例如|比如|格式|模板|不要|不能|不会|别|假设|如下|以下是|n't\b|\b(?:not|never|no|cannot|refuse|won't|avoid|instead|example|examples|sample|syntax|format|formatted|template|schema|show|shows|showing|explain|explaining|demonstrate|illustrate|describe|walk you|break down|outline|clarify|teach|tell you|share|paste|quote|quoting|repeat|reproduce|verbatim|print out|write out|would look|looks like|look like|like this|as follows|such as|e\.g\.|for instance|hypothetical|pretend|imagine|page|website|injected|instructions?|user (?:asked|wants|said|wrote)|asked me|told me|said to)\b|\?/i;

/**
 * Negations, which a report of what the model found may hold ("The API isn't responding", "The
 * tests don't pass on main yet") unless it also points at the markup ({@link POINTS}: "This isn't
 * mine."); the announcing sentence itself may hold none.
 */
const NEGATION = /n't\b|\b(?:not|never|no|cannot)\b/gi;
/** Words by which a sentence points at the markup or at a call. */
const POINTS = /\b(?:this|that|these|those|it|them|following|below|above|here|call|calls|command|commands|markup|snippet|payload|instructions?)\b/i;

/** True when a sentence before the announcing one disqualifies the preface: a disqualifying word, or a negation in a sentence that points at the markup. */
function disqualifiesReport(s: string): boolean {
  if (!DISQUALIFIERS.test(s)) return false;
  if (POINTS.test(s)) return true;
  return DISQUALIFIERS.test(s.replace(NEGATION, ' '));
}

/** A sentence that is only an acknowledgement ("Sure!", "Okay."): neutral, beside an announcement. */
const INTERJECTION = /^(?:ok(?:ay)?|alright|all right|sure|great|got it|understood|perfect|good|certainly|of course|absolutely|好的|好)[!.,。！]*$/iu;

/** Sentences of a preface: split after `.`, `!`, `:`, `;`, `。`, `！` or a newline. */
function sentences(preface: string): string[] {
  return preface
    .split(/(?<=[.!:;。！])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The length of the announcing preface before the markup, or 0.
 *
 * @param text the reply's visible text.
 * @param markupStart where the first markup span starts (UTF-16 index).
 * @returns `markupStart` when the last sentence before it announces the model's own next act (see
 *   the module header), no sentence before it holds a disqualifying word, and it is at most
 *   {@link MAX_PREFACE} characters long; else 0 (nothing set aside).
 */
export function announcingPreface(text: string, markupStart: number): number {
  if (markupStart <= 0 || markupStart > MAX_PREFACE) return 0;
  const preface = text.slice(0, markupStart).replace(/[’‘]/g, "'");
  const list = sentences(preface);
  if (list.length === 0) return 0;
  const announces = (s: string) => OPENERS.some((o) => o.test(s)) && !DISQUALIFIERS.test(s);
  const rest = list.filter((s) => !INTERJECTION.test(s));
  // the sentences before the announcing one report what the model found ("The tests ran: 2
  // failed. Let me open the log."): plain statements, none naming an example, a page, a question
  return rest.length > 0 && announces(rest[rest.length - 1]!) && rest.slice(0, -1).every((s) => !disqualifiesReport(s)) ? markupStart : 0;
}

/**
 * The delimiters of reasoning that chat templates have the model write before its answer or its
 * calls, which a server without a reasoning parser leaves in the visible text: `<think>` (Qwen3,
 * DeepSeek-R1, GLM-4.5+, MiniMax-M2, Hermes 4, ERNIE 4.5 Thinking, the Nemotron and EXAONE thinking
 * templates), Kimi's `◁think▷`, Mistral's `[THINK]` (Magistral; mistral-common's `ThinkChunk`,
 * mistralai/mistral-common @ bc022b91 `chunk.py`), Seed-OSS's `<seed:think>`, Command A's
 * `<|START_THINKING|>`, Gemma 4's `<|channel>thought` and Apertus's `<|inner_prefix|>` (the sources of
 * each family, docs/sources.md "Per-family grammars"), and the HTML-like `<thinking>`,
 * `<reasoning>`, `<thought>` of other prompts.
 */
const REASONING_BLOCKS: ReadonlyArray<readonly [string, string]> = [
  ['<think>', '</think>'],
  ['<thinking>', '</thinking>'],
  ['<reasoning>', '</reasoning>'],
  ['<thought>', '</thought>'],
  ['◁think▷', '◁/think▷'],
  ['[THINK]', '[/THINK]'],
  ['<seed:think>', '</seed:think>'],
  ['<|START_THINKING|>', '<|END_THINKING|>'],
  ['<|channel>thought', '<channel|>'],
  ['<|inner_prefix|>', '<|inner_suffix|>'],
];

/**
 * Where a reasoning section that opens the reply ends, when it closes before the markup: the
 * model's own thinking before its call, written into the visible text (the generation prompt of
 * many templates opens the block itself, so the text may hold only its closer). Like an announcing
 * preface it is not prose about the markup, so the prose ratio leaves it out (./judge.ts), and only
 * when nothing frames the markup: a refusal or an example frame in the thinking still refuses.
 * Real leaks with a few sentences of thinking before a Hermes, Mistral, Seed-OSS or Command block
 * measured 0.49-0.77 and passed as quotations.
 *
 * @param text the reply's visible text.
 * @param spans the markup's envelope spans ([start, end) UTF-16 indices, sorted): a family whose
 *   grammar holds the reasoning delimiters (Seed-OSS, Command A) has spans on them, which may lie
 *   inside the reasoning; markup must follow it.
 * @returns the index just after the reasoning's closer, or 0 when the text does not open with
 *   reasoning closed before the markup (an unclosed block, a block after other text, a second
 *   opener before the closer, markup inside the reasoning beyond its delimiters).
 */
export function leadingReasoning(text: string, spans: ReadonlyArray<readonly [number, number]>): number {
  let start = 0;
  while (start < text.length && /\s/.test(text[start]!)) start++;
  for (const [open, close] of REASONING_BLOCKS) {
    const c = text.indexOf(close, start);
    if (c < 0) continue;
    const end = c + close.length;
    // the block opened by the text, or by the generation prompt (only its closer in the text)
    const body = text.startsWith(open, start) ? start + open.length : text.lastIndexOf(open, c) < 0 ? start : -1;
    if (body < 0) continue;
    const again = text.indexOf(open, body);
    if (again >= 0 && again < c) continue;
    // markup after the reasoning, and none inside it but the delimiters themselves
    if (!spans.some(([, b]) => b > end) || spans.some(([a]) => a >= body && a < c)) continue;
    return end;
  }
  return 0;
}
