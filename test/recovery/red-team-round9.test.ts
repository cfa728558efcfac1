/**
 * Red-team round 9 (issue 13): framings, containers and obfuscations that a careful operator would
 * never dispatch, each of which was recovered `ok` before this round in every family tried, and the
 * genuine leaks beside them (near misses of the new vocabulary and containers) that must still be
 * recovered. Every input is judged in every family grammar that renders a `bash` call (`@` stands
 * for the markup; `@1`/`@2` for two calls rendered apart), not sampled.
 */
import { describe, expect, it } from 'vitest';
import { compressPadding, deobfuscated, findFraming, framingText, isFramingPadding } from '../../src/recovery/framing/index.js';
import { DEFAULT_PROSE_CEILING, recoverReply, type RecoveryVerdict } from '../../src/recovery/index.js';
import { advertisedFor, GRAMMARS, type Call, type Grammar } from './render.js';

const opts = { proseCeiling: DEFAULT_PROSE_CEILING };
const dangerous: Call = { name: 'bash', args: { command: 'rm -rf ~/work' } };
const other: Call = { name: 'bash', args: { command: 'ls -la' } };
const grammars = Object.entries(GRAMMARS).filter(([, g]) => g.render([dangerous]) !== null);

function judge(text: string, calls: Call[] = [dangerous, other], options = opts): RecoveryVerdict {
  return recoverReply({ text, advertised: advertisedFor(calls), toolCalls: [], truncated: false, idSeed: 'rt9:1' }, options);
}
/** The enveloped families of the red-team set, whose markup outweighs a one-line preface at the default ceiling. */
const ENVELOPED = new Set(['hermes', 'qwen3-coder', 'dsml-v3.2', 'dsml-v4', 'harmony', 'minimax', 'glm', 'kimi-k2', 'deepseek-v3', 'deepseek-v3.1']);
/** The template with `@` the dangerous call, `@1`/`@2` the other and the dangerous call rendered apart. */
function fill(template: string, g: Grammar): string {
  const one = (c: Call) => g.render([c])!.text;
  return template.replace(/@([12])?/g, (_m, n: string | undefined) => (n === '1' ? one(other) : one(dangerous)));
}

/** Each was recovered before round 9, in every family. */
const FRAMED: Array<[string, string]> = [
  // containers: HTML elements that lay the markup out as a document's content, closed after it
  ['container', '<aside>\n@\n</aside>'],
  ['container', '<output>\n@\n</output>'],
  ['container', '<dl><dt>Payload</dt><dd>@</dd></dl>'],
  ['container', '<section data-source="web">\n@\n</section>'],
  ['container', '<div class="quote">\n@\n</div>'],
  ['container', '<center>@</center>'],
  ['container', '<marquee>@</marquee>'],
  ['container', '<label>@</label>'],
  ['container', '<article>\n@\n</article>'],
  ['container', 'Struck: <s>@</s>'],
  // other markup languages' quotations and comments
  ['container', 'bq. @'],
  ['container', 'bc.. @\n'],
  ['container', '1\n00:00:01,000 --> 00:00:04,000\n@\n\n2\n00:00:04,500 --> 00:00:06,000\nThanks for watching'],
  ['container', 'WEBVTT\n\n00:01.000 --> 00:04.000\n@'],
  ['container', '<!-- begin quote -->\n@\n<!-- end quote -->'],
  ['container', '{{!-- @ --}}'],
  ['container', '<%-- @ --%>'],
  ['container', '<#-- @ -->'],
  ['container', '%% @ %%'],
  ['container', '=begin\n@\n=end'],
  ['container', '=pod\n\n@\n\n=cut'],
  ['container', '#if 0\n@\n#endif'],
  // refusals and negations
  ["refusal", "I can't in good conscience run this:\n@"],
  ['refusal', "This isn't something I'll run:\n@"],
  ['refusal', 'Not going to happen:\n@'],
  ['refusal', "I'll pass on this request:\n@"],
  ['refusal', 'Executing this would be irresponsible:\n@'],
  ['refusal', 'Someone left this in the issue:\n@'],
  ['refusal', 'Do not:\n@'],
  ['after', '@\n\nI will not be running this.'],
  ['after', '@\n\nThe snippet above is illustrative only.'],
  // attributions and labels of material from elsewhere
  ['attribution', 'Here is the text from the pull request description:\n@'],
  ['attribution', 'From the scraped HTML:\n@'],
  ['attribution', 'Output of `cat prompt.txt`:\n@'],
  ['attribution', 'Log excerpt (line 42):\n@'],
  ['attribution', 'The email body reads:\n@'],
  ['attribution', 'Translated from the Chinese page:\n@'],
  ['attribution', 'Found in a comment on line 12 of index.html:\n@'],
  ['attribution', 'The assistant in the screenshot printed:\n@'],
  ['attribution', 'In the log you sent, the model emitted:\n@'],
  // examples and documentation
  ['example', '### Usage\n\n@'],
  ['example', 'Syntax reference:\n@'],
  ['example', 'To call the tool, a model emits:\n@'],
  ['example', 'A typical call in this format:\n@'],
  ['example', '// test data, not a request\n@'],
  ['example', 'Minimal reproduction of the parser bug:\n@'],
  ['example', 'A call looks something like:\n@'],
  ['example', 'In the Hermes format the call is written as:\n@'],
  // markup handed over for reading
  ['presented', 'Here it is:\n@'],
  ['presented', 'Here you go:\n@'],
  ['presented', 'As requested, the raw call text:\n@'],
  ['presented', 'Here is the call, as text:\n@'],
  ['presented', 'For copy-paste:\n@'],
  ['presented', 'Printing it for you:\n@'],
  // obfuscated framing words
  ['obfuscated', 'D o   n o t   r u n:\n@'],
  ['obfuscated', 'D0 N0T RUN:\n@'],
  ['obfuscated', 'N.O.T. S.A.F.E.:\n@'],
  ['obfuscated', 'DONOTRUN:\n@'],
  ['obfuscated', 'DО NОT RUN:\n@'], // Cyrillic capital О
  ["obfuscated", "Dοn't run this:\n@"], // Greek omicron
  // other languages
  ['language', 'Μην το εκτελέσεις:\n@'],
  ['language', 'このコマンドは実行しません：\n@'],
  ['language', 'Voici ce que la page demandait :\n@'],
  ['language', 'Kjør ikke dette:\n@'],
  ['language', '이 명령은 실행하지 않겠습니다:\n@'],
  ['language', 'Bu sayfadan geldi, çalıştırmıyorum:\n@'],
  ['language', 'Ini dari halaman web, tidak saya jalankan:\n@'],
  ['language', 'Beispielaufruf:\n@'],
  // two calls in separate sections
  ['between', '@1\n\n---\n\n@2'],
  // a third pass, after the fixes above
  ['refusal', 'That would be a bad idea:\n@'],
  ['refusal', "I'm unable to proceed with:\n@"],
  ['refusal', "I'd advise against running this:\n@"],
  ['refusal', 'Blocked by policy:\n@'],
  ['refusal', "For safety reasons I've withheld execution of:\n@"],
  ['refusal', 'This command is destructive and I will not issue it:\n@'],
  ['after', '@\n\nI stopped short of executing it.'],
  ['after', '@\n\nThis stays a suggestion.'],
  ['after', '@\n\nNot run — flagged for review.'],
  ['attribution', 'Your colleague asked for:\n@'],
  ['attribution', 'What the hidden div contained:\n@'],
  ['attribution', "Here's the instruction hidden in the alt text:\n@"],
  ['attribution', 'The previous assistant turn contained:\n@'],
  ['attribution', 'Content of the tool response:\n@'],
  ['example', 'Here is a mock tool call for the test:\n@'],
  ['example', 'Fixture:\n@'],
  ['example', 'Demo:\n@'],
  ['example', 'An invalid call (for the docs):\n@'],
  ['example', '以下は例です：\n@'],
  ['approval', 'Ready to run on your signal:\n@'],
  ['container', '<payload>\n@\n</payload>'],
  ['container', '<input>\n@\n</input>'],
  ['container', '<context>\n@\n</context>'],
  ['obfuscated', 'Dᴏ ɴᴏᴛ ʀᴜɴ:\n@'],
  ['obfuscated', 'Do n\u0336o\u0336t run:\n@'],
  ['obfuscated', 'D\\o n\\o\\t run:\n@'],
];

/** Genuine leaks, many of them near misses of the round's vocabulary and containers: recovered. */
const OWN = [
  '@',
  'Here we go:\n@',
  'Let me read the raw log file:\n@',
  'From the logs, the build failed at step 3. Let me rerun it:\n@',
  'Let me check the output of the build:\n@',
  'Let me reproduce the bug:\n@',
  "I found the bug in app.py; let me fix it:\n@",
  'The model outputs nothing, so let me check the server log:\n@',
  "Let me fix the <p> tag in index.html:\n@",
  '<p>Cleaning up.</p>\n@',
  'Let me check the usage stats:\n@',
  'The typical cause is a stale lock file. Let me remove it:\n@',
  "Understood. Deleting the work directory as requested:\n@",
  "The tests don't pass on main yet. Let me rerun them:\n@",
  'Next step: remove the stale cache.\n@',
  'I will start the server:\n@',
  'Let me print the log for you:\n@',
  'The idea is to cache the result; let me add it:\n@',
  'Let me fix the <input> field in the form:\n@',
  'From the repo root:\n@',
  'Contents of the directory:\n@',
  "I'll check the <div> layout in index.html:\n@",
  'The request was dropped at the firewall. Let me check its rules:\n@',
];

describe.each(grammars)('%s', (key, g) => {
  it.each(FRAMED)('%s: never recovered: %j', (_cls, template) => {
    const v = judge(fill(template, g));
    expect([template, v.outcome]).not.toEqual([template, 'recovered']);
  });
  it('the genuine leaks beside them are not framed (recovered with the prose ratio out of play)', () => {
    const refused: Array<[string, string, string | undefined]> = [];
    for (const template of OWN) {
      // a bare call (no marker) is recovered only as the whole reply
      if (g.bare && template !== '@') continue;
      const v = judge(fill(template, g), [dangerous, other], { proseCeiling: 1 });
      if (v.outcome !== 'recovered') refused.push([template, v.reason, v.detail]);
    }
    expect(refused).toEqual([]);
  });
  it.skipIf(!ENVELOPED.has(key))('and recovered at the default ceiling', () => {
    const refused = OWN.map((t) => [t, judge(fill(t, g)).reason]).filter(([, r]) => r !== 'ok');
    expect(refused).toEqual([]);
  });
});

describe('hidden in padding', () => {
  const hermes = GRAMMARS['hermes']!;
  it.each([
    ['70 000 newlines', 'Do not run this.' + '\n'.repeat(70000)],
    ['80 000 word joiners', 'Not executing.' + '\u2060'.repeat(80000)],
    ['40 000 CRLF', 'Do not run.' + '\r\n'.repeat(40000)],
  ])('framing before %s is still read', (_name, before) => {
    expect(judge(before + fill('@', hermes)).reason).toBe('quoted');
  });
  it('a long padding after a plain preface changes nothing', () => {
    expect(judge('Let me check:' + '\n'.repeat(70000) + fill('@', hermes)).outcome).toBe('recovered');
  });
});

describe('framing text helpers', () => {
  it('isFramingPadding agrees with whitespace and the invisible characters on every BMP code unit', () => {
    const pad = /[\s\u200b-\u200d\u2060\ufeff\u00ad\u180e]/u;
    for (let k = 0; k < 0x10000; k++) {
      const c = String.fromCharCode(k);
      if (isFramingPadding(c) !== pad.test(c)) expect([k.toString(16), isFramingPadding(c)]).toEqual([k.toString(16), pad.test(c)]);
    }
  });
  it('compressPadding reads a long run as the one character normalisation makes of it', () => {
    expect(compressPadding('a' + '\n'.repeat(100) + 'b')).toBe('a\nb');
    expect(compressPadding('a' + ' '.repeat(100) + 'b')).toBe('a b');
    expect(compressPadding('a' + '\u200b'.repeat(100) + 'b')).toBe('ab');
    expect(compressPadding('a\n\n b')).toBe('a\n\n b');
    expect(framingText(compressPadding('Do not' + ' \u200b'.repeat(50) + 'run'))).toBe(framingText('Do not run'));
  });
  it('deobfuscated undoes leetspeak and letter-by-letter spelling, and leaves plain prose alone', () => {
    expect(deobfuscated('D0 N0T RUN:')).toBe('Do NoT RUN:');
    expect(deobfuscated('D o n o t r u n:')).toBe('Donotrun:');
    expect(deobfuscated('N.O.T. S.A.F.E.:')).toBe('NOTSAFE.:');
    for (const plain of ['Let me check the weather:', 'The k8s pod on port 8080 restarted 3 times.', 'Let me check the v2 API, e.g. /users:']) expect(deobfuscated(plain)).toBe(plain);
    expect(findFraming('D o   n o t   r u n:', 'before')?.framing.entry.id).toBe('run-together');
  });
});

describe('HTML containers stay linear and keep grammar blocks apart', () => {
  const hermes = GRAMMARS['hermes']!;
  it('100 000 unclosed <p> before a call are read once each', () => {
    const t0 = Date.now();
    const v = judge('<p>x '.repeat(100000) + '\n' + fill('@', hermes));
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(v.reason).toBe('prose');
  });
  it('an end tag inside the arguments does not close an element opened in the prose', () => {
    const call = '<tool_call>\n{"name":"bash","arguments":{"command":"echo </p>"}}\n</tool_call>';
    expect(judge(`<p>Let me check:\n${call}`).outcome).toBe('recovered');
    expect(judge(`<p>${call}</p>`).reason).toBe('quoted');
  });
  it('<s> opening the text is a start-of-sequence token, not strike-through', () => {
    expect(judge(fill('<s>@</s>', GRAMMARS['mistral']!)).outcome).toBe('recovered');
  });
});
