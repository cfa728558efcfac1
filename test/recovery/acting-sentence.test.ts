/**
 * The reply's own plan overrules what it says about a source or an example (session of
 * 2026-12-02): everyday prefaces of real leaks that were refused as quotations because they name a
 * document, an example or an earlier turn ("The issue says the build fails on main. Let me check:")
 * are recovered when the sentence right before the markup states the reply's next action; the same
 * words without such a sentence, or with a verb of showing ("Let me show…", "I'll write an
 * example:"), and every refusal, negation, hypothetical or disowning still refuse. `@` stands for
 * the markup: a Hermes call of `bash`.
 */
import { describe, expect, it } from 'vitest';
import { actsNext, lastSentence } from '../../src/recovery/framing/index.js';
import { EN } from '../../src/recovery/framing/en.js';
import { outcomeWith } from './templates.js';

const CALL = '<tool_call>\n{"name": "bash", "arguments": {"command": "ls -la src"}}\n</tool_call>';
const outcome = outcomeWith(CALL);

/** Refused as quotations before this change; the model's own calls. */
const OWN = [
  'Let me search for examples in the repo:\n@',
  'Let me copy the file verbatim:\n@',
  'The issue says the build fails on main. Let me check:\n@',
  "As previously discussed, I'll run the migration:\n@",
  'Let me look at the prompt injection filter code:\n@',
  'Let me find where the injected dependency is configured:\n@',
  "Per the README, I'll install the dependencies first:\n@",
  'I suspect the cache is stale, so let me clear it:\n@',
  'Let me check the SQL injection tests:\n@',
  // technical uses of framing words (red-team pass of 2026-12-02)
  'The connection was refused. Let me check the database:\n@',
  'Let me re-run the tests to confirm the fix:\n@',
  "The server won't start. Let me check the port:\n@",
  'No, the file is not there. Let me search for it:\n@',
  'I suppose the handler lives in src/api. Let me grep for it:\n@',
  'Let me generate dummy data for the tests:\n@',
  'Run "make":\n@',
  'Let me run it:\n@\n"done"',
];

/**
 * Still framed: framing in the acting sentence itself, an earlier sentence that points at the
 * markup, a verb that is no act on the world, or framing no plan overrules (red-team pass of
 * 2026-12-02 against the first form of the rule, which overruled too much).
 */
const FRAMED = [
  "I'll check the call syntax first:\n@",
  "I'll run the test suite, e.g. pytest:\n@",
  "I'll update the changelog as the ticket requests:\n@",
  'Here is an example of the syntax. Let me run it now:\n@',
  "Let's look at an example:\n@",
  'Let me check this example from the docs:\n@',
  "I'll add a sample call for reference:\n@",
  "I'm attaching the page's snippet verbatim:\n@",
  'Let me write the example call:\n@',
  'Let me stress that this is only an example:\n@',
  'Here is an example from the docs. Let me analyze it:\n@',
  'The page contains this call. Let me copy it over:\n@',
  'The document says to run the following. I\'ll insert it below:\n@',
  'The user wrote the following. I\'ll attach it as-is:\n@',
  'The README includes a sample call. Let me look at it:\n@',
  'Someone on GitHub posted this call. Let me examine it:\n@',
  'The tool result includes a call. I\'ll check what it does:\n@',
  'User: what files are here?\nAssistant:\nLet me check:\n@',
  'The first call is mine. The second one comes from the page\'s hidden text. Let me list the files:\n@',
  'The README says:\n@',
  'For example, I\'ll call:\n@',
  "I'll write an example:\n@",
  'Let me show the call syntax:\n@',
  'Let me list what the page asked for:\n@',
  'Let me copy what the page said verbatim:\n@',
  'Let me paste what the page said:\n@',
  "I'll quote the tool output:\n@",
  'Let me check. The page says:\n@',
  "I'll run it, hypothetically:\n@",
  'Let me run it with placeholders:\n@',
  'Let me run what the attacker wanted:\n@',
  'The first was from the page. Let me run the second:\n@',
  "I'm not going to run what the page asked:\n@",
  "I'll never run this, the page asked for it:\n@",
  'Let me run this? The page asked for it:\n@',
  'Let me check the page. This is a prompt injection:\n@',
  'Let me run it. Should I?\n@',
  "Let me run the tests:\n@\nThat is an example of the syntax; do not run it.",
];

describe('an acting sentence before the markup', () => {
  it.each(OWN)('recovers %j', (t) => expect(outcome(t)).toBe('recovered'));
  it.each(FRAMED)('refuses %j', (t) => expect(outcome(t)).toBe('refused'));
});

describe('the acting phrase', () => {
  it.each(EN.acting!.match)('states an action: %j', (s) => expect(actsNext(s)).toBe(true));
  it.each(EN.acting!.not_match)('states none: %j', (s) => expect(actsNext(s)).toBe(false));
  it('is read on the last sentence only, abbreviations and a closing colon included', () => {
    expect(lastSentence('The issue says the build fails. Let me check:')).toBe('Let me check:');
    expect(lastSentence("I'll run the suite, e.g. pytest:  ")).toBe("I'll run the suite, e.g. pytest:");
    expect(lastSentence('See README.md first.\nNow let me run it:')).toBe('Now let me run it:');
    expect(lastSentence('好的。我来运行：')).toBe('我来运行：');
    expect(actsNext('Let me run the tests. The page says:')).toBe(false);
  });
});
