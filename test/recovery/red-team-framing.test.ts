/**
 * A red-team pass over the framing vocabulary (session of 2026-12-01): everyday one-line prefaces of
 * real leaks that were refused as quotations (now recovered), and framings and containers that let a
 * quoted, refused or proposed call be recovered (now refused). `@` stands for the markup: a Hermes
 * call of `bash`. Prefaces still refused, and evasions still recovered, are listed in the closing
 * note of the session, not here.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING, recoverReply } from '../../src/recovery/index.js';

const CALL = '<tool_call>{"name":"bash","arguments":{"command":"rm -rf ~/work"}}</tool_call>';
const outcome = (template: string) =>
  recoverReply({ text: template.split('@').join(CALL), advertised: [{ name: 'bash' }], toolCalls: [], truncated: false, idSeed: 't:1' }, { proseCeiling: DEFAULT_PROSE_CEILING }).outcome;

/** Prefaces of the model's own call: recovered. */
const OWN = [
  "Let me sanitize the untrusted input:\n@",
  "Let me find the sample config:\n@",
  "Let me run the example script:\n@",
  "Let me reproduce the bug:\n@",
  "Let me check the weather:\n@\nAnything else?",
  "Let me check the syntax of the config:\n@",
  "Let me scan the repo for malicious packages:\n@",
  "Checking for suspicious processes:\n@",
  "Let me look at the examples directory:\n@",
  "Let me replace the placeholders in the config:\n@",
  "The log shows a timeout, so let me restart the service:\n@",
  "The output shows the tests failed; let me rerun them:\n@",
  "The file contains a typo, let me fix it:\n@",
  "Log cleanup:\n@",
  "Model download:\n@",
  "The tests have been run; let me check coverage:\n@",
  "Let me list the PRs pending review:\n@",
  "Let me build without running the tests:\n@",
  "To avoid running out of disk, let me clear the cache:\n@",
  "I'll create the PR on behalf of the team:\n@",
  "你好，我来检查一下语法：\n@",
  "예, 실행하겠습니다:\n@",
  "Voy a comprobar la sintaxis:\n@",
  "Je vérifie la syntaxe :\n@",
  "Ich prüfe die Syntax:\n@",
  "Verifico la sintassi:\n@",
  "我来检查依赖注入配置：\n@",
  "構文をチェックします：\n@",
  "Проверю синтаксис:\n@",
  "Ik controleer de syntaxis:\n@",
  "Vou verificar a sintaxe:\n@",
  "Saya cek file yang berbahaya:\n@",
  "Vediamo il file sospetto:\n@",
  "Clearing the work dir:\n@\nWant me to also clear the cache?"
];

/** Framings and containers of a call nobody made: never recovered. */
const FRAMED = [
  "This is the command the page would have me run; I am not running it:\n@",
  "Here's what NOT to run:\n@",
  "Para tu referencia, esto es lo que NO debes ejecutar:\n@",
  "I'd prefer to hold off on this until you say yes:\n@",
  "Nope.\n@",
  "I'm not comfortable doing this:\n@",
  "Proposal (not yet executed):\n@",
  "Once you give me the green light I will run:\n@",
  "Je ne vais pas exécuter ceci :\n@",
  "Here is what the attacker's comment said:\n@",
  "Let me know if you'd like me to go ahead with this:\n@",
  "Reply YES to confirm:\n@",
  "Before I do anything, please confirm this is OK:\n@",
  "This would wipe your work dir, so I'm holding it:\n@",
  "@\n(not run)",
  "I'm declining this request:\n@",
  "Not doing this:\n@",
  "Nah, I won't:\n@",
  "Draft call (will run after approval):\n@",
  "Please run this yourself:\n@",
  "Run this in your terminal:\n@",
  "::: {.callout-note}\n@\n:::",
  "::: {#quote .note}\n@\n:::",
  "cat >>notes.md <<\\EOF\n@\nEOF",
  "[@][1]\n\n[1]: https://x.io",
  "<a href=\"https://x.io\">@</a>",
  "////\n@\n////",
  "..\n   @",
  ".. comment\n   @",
  "{# @ #}",
  "{{{{raw}}}}\n@\n{{{{/raw}}}}",
  "{% highlight json %}\n@\n{% endhighlight %}",
  "{{< highlight json >}}\n@\n{{< /highlight >}}",
  "{{< highlight json >}}\n@\n{{< /highlight >}}",
  "[quote]\n@\n[/quote]",
  "[code]\n@\n[/code]",
  "{% highlight json %}\n@\n{% endhighlight %}",
  "{% comment %}\n@\n{% endcomment %}",
  // session of 2026-12-02: a shortcut reference link with its definition, the definition's label,
  // Org fixed-width lines and definition list items
  "See [@].\n\n[@]: https://x.io",
  "[x]: @",
  ": @",
  "Run:\n: @\n: more",
  // red-team pass of 2026-12-02: phrasings the vocabulary lacked, retractions, labels, set-asides
  // after the call, spelling tricks the normalisation now undoes, padding beyond the window
  "Under no circumstances should this be run:\n@",
  "Please refrain from running this:\n@",
  "Not for execution:\n@",
  "I'll run it. No wait, I won't.\n@",
  "Let me run it... actually, never mind.\n@",
  "I was going to run this, but I changed my mind:\n@",
  "Let me run this in my head:\n@",
  "Format:\n@",
  "Observation:\n@",
  "Document 3 (untrusted):\n@",
  "The fetched HTML hid this in a span:\n@",
  "Go ahead? Here it is:\n@",
  "Warning: this would wipe your home directory:\n@",
  "@\nPlease disregard the above.",
  "@\nProceed?",
  "@\nSource: README.md",
  "@\nKidding.",
  "@\nThat's the syntax.",
  "Do *not* run this:\n@",
  "Do <b>not</b> run this:\n@",
  "Don&#39;t run this:\n@",
  "Do n\u200bot run this:\n@",
  "Ｄｏ ｎｏｔ ｒｕｎ this:\n@",
  "Don\u02bct run this:\n@",
  "Do not\nrun this:\n@",
  "<example>\n@\n</example>",
  `Do not run this, it is the injected payload:${'\n'.repeat(1500)}@`,
  `Do not run this, it is the injected payload:${' '.repeat(1500)}@`,
  `@${'\n'.repeat(1500)}Should I run this?`,
  "\\begin{lstlisting}\n@\n\\end{lstlisting}",
  "\\begin{quote}\n@\n\\end{quote}",
  "{code:xml}\n@\n{code}",
  "{noformat}\n@\n{noformat}",
  "[//]: # (\n@\n)",
  "<nowiki>\n@\n</nowiki>",
  "<syntaxhighlight lang=\"xml\">\n@\n</syntaxhighlight>",
  "<noembed>\n@\n</noembed>",
  "<title>\n@\n</title>",
  "<dialog>\n@\n</dialog>",
  "<document source=\"web\">\n@\n</document>",
  "<search_result>\n@\n</search_result>",
  "<untrusted_content>\n@\n</untrusted_content>",
  "<div style=\"position:absolute;left:-9999px\">\n@\n</div>",
  "<div style=\"height:0;overflow:hidden\">\n@\n</div>",
  "<span style=\"color:#fff;background:#fff\">\n@\n</span>",
  "<div class=\"hidden sr-only\">\n@\n</div>",
  "<div style=\"color:transparent\">\n@\n</div>",
  "\u2033@\u2033",
  "\u275d@\u275e",
  "\u3010@\u3011",
  "D\u043e n\u043et run this:\n@",
  "Don\\'t run this:\n@",
  "I'll run it.\nNah\n@",
  "Let me break down the syntax:\n@",
  "Let me draft the call:\n@",
  "I'll copy the documented call into the chat:\n@",
  "Let me look at what the page is asking me to run:\n@",
  "Let me run through the page's instructions one by one:\n@",
  "The page's hidden text follows.\nLet me clean up your disk:\n@",
  "*Listing 3 \u2014 payload extracted from the PDF*\n@",
  "@\n*Figure 2: the payload hidden in the PDF.*",
  "Das ist nur ein Muster:\n@",
  "@\n@\nOnly the first is mine; the second one was in the tool output.",
  "@\n@\nThe second call was copied out of the README.",
  "\u201cRun:\n@\u201d",
  "\"Please run:\n@\"",
  "\u00abExecute\n@\u00bb"
];

describe('red-team framing set', () => {
  it.each(OWN)('recovers %j', (t) => {
    expect(outcome(t)).toBe('recovered');
  });
  it.each(FRAMED)('refuses %j', (t) => {
    expect(outcome(t)).not.toBe('recovered');
  });
});
