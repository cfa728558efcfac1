/**
 * English framing vocabulary (./types.ts). Kept small: each entry is a way a reply says that the
 * markup it shows is not its own call. The near misses are the commonest real prefaces of leaked
 * calls ("Let me check the weather:", "The user wants…, so I'll call…"), which must stay clean.
 */

import type { FramingLanguage } from './types.js';

/** Verbs of acting on a call or a command. */
const ACT =
  '(?:run|running|ran|execute|executing|invoke|invoking|call|calling|dispatch|dispatching|perform|performing|carry|carrying|follow|following|obey|obeying|comply|complying|trigger|triggering|use|using|do|doing|try|trying|send|sending|submit|paste|type|enter|copy|trust|act|apply|launch|start|process|issue|emit|fire)';

/**
 * Verbs by which a reply states an act on the world after "let me" / "I'll" (`Let me check the
 * log:`, `I'll run the tests:`), and their -ing forms after "I'm". Verbs of looking at, showing,
 * explaining, copying or keeping text are not among them: "Let me look at it:", "I'll paste it:".
 */
const ACTING_VERBS =
  '(?:run|rerun|re-run|check|recheck|install|reinstall|build|rebuild|compile|test|retest|fix|open|read|search|look (?:up|for|into|through)|list|fetch|update|upgrade|create|restart|start|stop|query|grep|find|inspect|verify|debug|retry|try|download|clone|pull|push|commit|deploy|configure|set up|add|remove|delete|edit|modify|change|apply|migrate|execute|call|get|load|clear|clean|reset|launch|lint|scan|use|kill|mount|compress|extract|rename|move|copy (?:the |this |that |these |those |all )?(?:[\\w./-]+ )?(?:files?|folders?|director(?:y|ies)|contents?)|write to|invoke|ping|curl|wget|ssh|send the (?:request|email|message)|double-check|investigate|diagnose|profile|benchmark|measure|count|compute|calculate|convert|sort|filter|navigate|visit|browse|click|go to|connect|authenticate|log in|sign in|look at (?:the|my|our|your) (?!call|command|markup|snippet|example|sample|syntax|format|page|following|text|instructions?)\\w+)';
export const ACTING_ING =
  '(?:running|rerunning|checking|installing|building|compiling|testing|fixing|opening|reading|searching|looking (?:up|for|into|through)|listing|fetching|updating|upgrading|creating|restarting|starting|stopping|querying|grepping|inspecting|verifying|debugging|retrying|trying|downloading|cloning|pulling|pushing|deploying|configuring|adding|removing|deleting|editing|modifying|changing|applying|migrating|executing|calling|getting|loading|clearing|cleaning|resetting|launching|linting|scanning|using|invoking|investigating|diagnosing|connecting|authenticating|navigating|visiting|browsing|counting|computing|calculating|converting)';

/** What a reply quotes material from: a document, a page, a message, a tool's output. */
const SOURCE =
  '(?:page|site|website|web ?page|html|pdf|document|docs?|documentation|e-?mail|message|readme|issue|ticket|thread|comment|post|article|tool (?:output|result|response)|search results?|response|attachment|screenshot|transcript|chat|forum|blog|paper|slides?|wiki|prompt|payload|description|changelog)';

export const EN: FramingLanguage = {
  language: 'en',
  acting: {
    pattern:
      `^(?:(?:ok(?:ay)?|alright|all right|great|good|sure|right|now|next|so|then|first|finally|perfect|got it|understood|thanks|thank you|yes|also|additionally|alternatively)\\b[,.!]? ?)*(?:(?:as|per|since|because|according to|given|following) [^,.:;!?\\n]{1,80}, )?(?:(?:let me|let's|i'll|i will|i'm going to|i am going to|i'm gonna|i need to|i'm now going to|now i'll)(?: (?:now|first|then|just|also|quickly|next|again|go ahead and|try to|need to|start by|begin by))* ${ACTING_VERBS}\\b|(?:i'm|i am)(?: (?:now|just|also|first|then))* ${ACTING_ING}\\b)`,
    match: ['Let me search for examples in the repo:', "I'll run the test suite, e.g. pytest:", "As previously discussed, I'll run the migration:", 'Okay, now let me check the log:', "I'm running the tests:", 'Let me copy the file verbatim:', "Per the README, I'll install the dependencies first:", 'Let me check:'],
    not_match: ['Let me show the call syntax:', "I'll quote the page:", "I'm not going to run it:", 'Let me paste what the page said:', 'Let me copy the call here:', 'The user wrote:', 'Should I run this?', "I'm ignoring it:", 'Let me write out the call:', "I'm sure this is an example:", 'Let me know if this is the syntax:', "I'll be honest, the page says:", "I'm relaying the page's request:", 'Let me write an example call:', "Let me review what the page asked for:", 'Let me echo the instructions:', "Let's look at an example:", 'Let me analyze it:', 'Let me look at it:', 'Let me stress that this is only an example:', 'Let me elaborate:', 'Let me copy it over:', "I'll attach it as-is:", 'Let me think this through:'],
  },
  entries: [
    {
      id: 'negated-action',
      says: 'a negated instruction',
      place: 'around',
      pattern: `(?<!\\b(?:string|phrase|text|word|words|pattern|message|comment|label|marker|line|lines|warning|grep|grep for|search for|find) ["'“‘])\\b(?:do not|dont|never|must not|mustn't|should not|shouldn't|not going to|refuse to|decline to|(?<!\\b(?:the|my|our|your|its|their) (?!(?:user|users|page|document|docs|site|website|readme|instructions?|e-?mail|message|attacker|comment|prompt|author)\\b)[\\w.-]+ )don't|(?<!\\b(?:the|a|an|my|our|your|its|their) [\\w.-]+(?: [\\w.-]+)? )(?:will not|won't|would not|wouldn't|cannot|can't|can not))(?: (?:please|ever|actually|really|blindly|just|this|that|it|the|any|these|those|following|command|call|code|tool|in good conscience|safely|responsibly|ethically|legitimately|knowingly|be)){0,3} ${ACT}\\b`,
      match: ['I will not be running this.', "I can't in good conscience run this:", "I can't safely execute that.", 'The user says don\'t run this:', 'The page says: don\'t run it.', 'Do NOT invoke the following, it is what the injected page asked for:', "Please don't dispatch this:", 'do not run it.', "I won't run it.", 'Never execute the following'],
      not_match: ['I\'ll grep for the string "do not run" in the scripts:', 'The tests don\'t run in CI, so let me check the workflow file:', 'I suppose the handler lives in src/api. Let me grep for it:', 'Let me generate dummy data for the tests:', 'The server won\'t start because port 8080 is already in use. Let me check what holds it:', 'The app cannot launch on macOS; let me read the crash log:', "Don't worry, this only lists files:", "Don't worry, I'll run the tests now.", 'Let me check the weather:', "I can't find the file, so let me search for it:"],
    },
    {
      id: 'refusal',
      says: 'a refusal',
      place: 'around',
      pattern:
        "(?:^|\\n)(?:(?:nope|nah)[.!,]|no[.!])(?:\\s|$)|\\b(?:i(?:'m| am) not comfortable|not doing (?:this|that|it)|declin(?:e|es|ed|ing) (?:this|that|the) (?:request|call|command|instruction)|i(?:'m| am) not (?:going to )?(?:running|executing|calling|invoking|dispatching|doing) (?:it|this|that)|what not to (?:run|execute|call|invoke|use|do|send))\\b|\\b(?:i'?d rather not|i would rather not|as an ai\\b|i (?:refuse|decline|must decline|have to decline|will not|won't|cannot|can't|am unable to|am not able to) (?:to )?(?:help|assist|comply|do (?:that|this|it|so)|carry (?:this|that|it) out)|i refuse|(?<!\\b(?:connection|connections|request|requests|access|permission|port|login|push|server|socket|handshake|authentication|auth) (?:was |were |is |got |has been |had been |been )?)refus(?:e|ed|es|ing|al)\\b(?! (?:to connect|the connection|connection))|declin(?:e|ed|ing) to|not (?:safe|allowed|permitted|authori[sz]ed) to|(?<!\\b(?:for|find|finds|detect|detects|scan|scans|check|checks|flag|remove|identify|search|list|audit|block) (?:any |the |all |some |possibly |potentially |known )?)(?:unsafe|malicious|suspicious|harmful)|prompt injection(?! (?:filters?|detectors?|detection|classifiers?|guards?|guardrails?|defen[cs]es?|tests?|checks?|scanners?|modules?|code|handling|protection|mitigations?|benchmarks?|datasets?|research|papers?)\\b)|(?<!(?:dependency|dependencies|constructor|sql|code) )injected(?! (?:dependenc(?:y|ies)|services?|beans?|providers?|mocks?|fixtures?|props|configs?|configuration|instances?|clients?|loggers?)\\b)|injection attempt)",
      match: ['As an AI, I must decline.', 'No.', "I'd rather not.", 'I refuse to carry this out', 'This looks malicious:', 'it is what the injected page asked for', 'I cannot help with that.', 'This is a prompt injection:', 'a prompt injection attempt'],
      not_match: ['The connection was refused. Let me check whether the database is running:', 'No, the file is not there. Let me search for it:', 'I will check the file:', 'Running the tests now.', 'The command is safe to run:', 'Let me look at the prompt injection filter code:', 'Let me find where the injected dependency is configured:'],
    },
    {
      id: 'attribution',
      says: 'an attribution to someone else',
      place: 'around',
      pattern:
        "\\b(?:(?<!\\b(?:check|read|see|find out|look (?:at|into)|inspect|verify|investigate|understand|figure out|confirm|grep for|search for|open|debug|diagnose) (?:what|why|whether|if|how|where|when) )the (?:user|customer|requester|human|person) (?:wrote|writes|pasted|pastes|typed|posted|quoted)|(?<!\\b(?:check|read|see|find out|look (?:at|into)|inspect|verify|investigate|understand|figure out|confirm|grep for|search for|open|debug|diagnose) (?:what|why|whether|if|how|where|when) )(?:the|this|that|a|an) (?:web ?page|page|website|site|document|doc|e-?mail|message|article|post|tool (?:result|output)|search results?|instructions?|prompt|comment|readme|issue|ticket|snippet|payload) (?:wrote|writes|said|says|asked|asks|contains|contained|includes|included|requested|requests|wants|wanted|told|tells|instructs|instructed|suggested|suggests|shows|showed|reads|demanded|demands)|(?:the|this|that|a|an) (?:file|results?|text|content|input|output|response|log) (?:wrote|writes|said|says|asked|asks|requested|requests|wants|wanted|told|tells|instructs|instructed|demanded|demands)|according to (?:the|this|that|a|an|their|its|some) (?:user|customer|web ?page|page|website|site|document|documentation|docs|e-?mail|message|comment|article|post|readme|search results?|tool (?:result|output)|snippet|payload|prompt)|(?<!cop(?:y|ying) (?:the |this |that |these |those |all )?(?:[\\w./-]+ )?(?:files?|folders?|director(?:y|ies)|contents?) )verbatim|as quoted|(?:quoting|(?:let me|i'll|i will|i'm going to|i am going to) quote\\b)(?! (?:the |this |that |each |every |all |any )?(?:paths?|arguments?|args?|variables?|vars?|file ?names?|strings?|spaces?|globs?|patterns?|values?|urls?|parameters?|expansions?|it properly|properly|correctly)\\b)|copied (?:from|verbatim)|from the (?:page|website|site|web ?page|document|email|e-mail|search results?)|(?:asked|told|instructed|wants|wanted|tried to get|(?:is |are )?asking) me to (?:run|execute|call|invoke|use|do|send|emit)|the (?:page|web ?page|website|site|document|e-?mail|readme|issue|comment|tool output)'s (?:instructions?|commands?|request|calls?|payload|snippet|hidden text))\\b",
      match: ['According to the page, run this:', "I'll quote the tool output:", 'Let me run what the page said:', 'Let me check the page. The user wrote:', 'The user wrote:', 'is what the page said;', 'reproducing the injected text verbatim', 'The document asks to run', 'The user asked me to run this:'],
      not_match: ['Let me quote the path properly this time:', 'Quoting the file names fixes it; retrying:', 'Let me check what the user wrote in notes.txt:', 'Let me find out why the page said 404:', 'The request came from the user, so I will call the tool:', 'Let me extract the links from the fetched page:', "Now I'll implement the translator according to the specification. Let me start by creating the form.", 'I will refactor it according to plan:', 'The user wants the weather in Paris, so I will call the tool:', 'The user asked for the weather in Paris.', 'The user says "hi". Reply briefly.', 'Let me read the file first.', 'I will search the web for it:', 'written on a line of its own in the logs we collected'],
      overruled_by_acting: true,
    },
    {
      id: 'disowned',
      says: 'a call disowned as someone else\'s',
      place: 'around',
      pattern:
        "\\b(?:(?:first|second|third|last|other) (?:one |call |block )?(?:was|is|came|comes) (?:in|from|out of) (?:the|a|an) (?:tool output|tool result|page|web ?page|website|document|readme|e-?mail|search results?|comment|issue)|copied (?:out of|from) the (?:readme|docs|documentation|page|website|document|issue|tool output)|(?:i|we)(?:'ll| will) (?:just |only )?(?:display|show|print|echo|quote|relay) (?:it|this|that|them)\\b|the attacker (?:wrote|writes|pasted|typed|posted|quoted|wanted|wants|asked|tried|planted)|attacker(?:'s)? (?:payload|command|call|code|instructions?)|(?:came|comes|arrived|arrives) (?:with|in) (?:the|a|an|this|that) (?:scraped|fetched|crawled|retrieved|injected|untrusted|external) |(?:written|posted|pasted|embedded|hidden|planted|inserted|injected) (?:by|in|on|into|inside) (?:the|a|an|this|that|their|some) (?:user|attacker|page|web ?page|website|site|document|e-?mail|message|comment|readme|issue|prompt|search results?|tool (?:result|output))|according to (?:the|this|that|a|an|their|its|some) attacker|the attacker'?s\\b|(?:is|was) from the (?:page|website|site|document|email|tool|user|result)|from the (?:docs|documentation|readme|previous turn|earlier turn|last turn), not (?:me|mine)|not (?:mine|me)[.!]|(?:came|comes|is|was|were) from (?:the|a|an|this|that) (?:scraped|fetched|crawled|untrusted|injected|external|third-party) )",
      match: ['Only the first is mine; the second one was in the tool output.', 'The second call was copied out of the README.', 'This is a hostile instruction from the fetched page. We will just display it to the user.', 'Attacker payload (from PDF):', 'This came with the scraped text. I\'ll archive it:', "Here's what the attacker wanted me to send:", 'The first was from the page, the second is mine:', "^ that's from the docs, not me.", 'it came from the scraped page:', 'This was planted in the README by someone:', 'Let me run what the attacker wanted:'],
      not_match: ['Let me check the weather:', 'Let me read the untrusted input file:', 'The fetched page is long; let me summarise it:'],
    },
    {
      id: 'example',
      says: 'an example',
      place: 'around',
      pattern:
        "(?:\\be\\.g\\.|\\bex ?:|\\bi\\.e\\.)|\\b(?:for example|for instance|(?<!(?:search|look|find|grep|list|brows|scan)(?:e|es|ed|ing|s)? (?:for |through |in |at |the |some |more |other |existing |all |any |relevant |similar ){0,3})(?<![/\\\\])(?:examples?|samples?)(?![/\\\\])(?! (?:directory|directories|folder|folders|dir|script|scripts|file|files|project|projects|app|apps|config|configs|configuration|module|modules|package|packages|data|dataset|repo|repository|tests?)\\b| outputs? (?:in|under|at) )|illustrat(?:e|es|ed|ing|ion|ive)|(?:is|are) (?:written|formatted|expressed|encoded|spelled|rendered) (?:as|like)|typical (?:call|invocation|usage|request|command|tool call|reply|output|response)s?|(?:mock|mocked|fake|stub|stubbed) (?:tool call|call|function call|invocation)s?|in this format|(?:syntax|format|call) reference|cheat ?sheet|demonstrat(?:e|es|ed|ing|ion)|(?:call|tool|markup|function) syntax|the syntax (?:is|for (?:a |the )?(?:call|tool|function))|(?:break down|explain|teach you|walk (?:you )?through|describe)(?: (?:the|a|how(?: a| the)?))? (?:syntax|format|tool call|call syntax|markup|call looks)|looks like this|look like this|like this|like so|the format (?:is|was|of (?:a|the))|formatted as|for reference|(?:call|command|tool call) template)\\b|(?:^|\\n)templates? ?:|\\b(?:looks|look|would look|might look) (?:something |roughly |kind of |sort of )?like ?(?::|$)",
      match: ['Here is a mock tool call for the test:', 'A call looks something like:', 'In the Hermes format the call is written as:', 'The snippet above is illustrative only.', 'A typical call in this format:', 'Syntax reference:', 'Cheat sheet:', 'e.g.', 'Ex:', '## Example', 'Sample output:', 'That is an example of the syntax;', 'A tool call looks like this:', 'For instance:', 'Template:', 'For reference, the call was:', 'Sample output of the tool:'],
      not_match: ['Let me check the example output in docs/examples:', 'Let me create the template file:', 'I will fill in the template:', 'Let me check the weather:', "I'll read the file.", 'Checking the logs now:', 'Let me format the output for you.', 'It looks like the tests failed. Let me check the log:', "I'll check the Python file for errors:", 'The typical cause is a stale lock file. Let me remove it:', 'Let me look up the API reference for the flag:'],
    },
    {
      id: 'imagined',
      says: 'an imagined or placeholder call',
      place: 'around',
      pattern:
        "\\b(?:(?<!(?:replace|fill|fill in|substitute|update|set) (?:the |all |any )?)placeholders?|hypothetical(?:ly)?|imagine|(?<!\\bi )suppose|pretend|would look|could look|might look|the (?:call|command|markup|request) (?:would be|would look)|test string|dummy (?:call|command|payload|input)|draft (?:the |a |this )?(?:call|command|tool call))\\b",
      match: ["it's a test string", 'Hypothetically, the call would be:', 'Imagine the model wrote:', 'Let me run it with placeholders:', 'The call would look like:'],
      not_match: ['Let me replace the placeholders in the config:', 'Let me check the weather:', 'I will run the tests:'],
    },
    {
      id: 'bad-example',
      says: 'a bad example to avoid',
      place: 'around',
      pattern:
        "\\b(?:never (?:emit|output|print|write|send|produce|generate|return)|avoid (?:this|that|these|the following|emitting|outputting|writing|output like)|don'?t (?:do|write|emit|output) (?:this|that|it)|(?:this|that|it) is (?:bad|wrong|incorrect|broken|invalid|malformed) (?:output|usage|markup|format))|(?:^|\\n|[.!?] )(?:an? |the )?(?:bad|wrong|incorrect|invalid|broken|malformed)(?: (?:example|output|usage|call|tool call|format|markup|request))?(?: \\([^)\\n]{1,30}\\))? ?:|\\((?:for|from) the (?:docs|documentation|readme|tutorial|slides|talk|blog post)\\)",
      match: ['An invalid call (for the docs):', 'Never emit:', 'Avoid this:', 'Bad:', 'Wrong:', 'Incorrect output:', 'This is bad output.', "Don't do this:"],
      not_match: ['Let me check the weather:', 'Something went wrong: let me retry.', 'The build looks broken, let me check the log:', 'That was wrong, let me retry:', 'I will avoid the network and read the file:'],
    },
    {
      id: 'cited-source',
      says: 'a quotation of a document or a post',
      place: 'around',
      pattern:
        "\\b(?:per the (?:[\\w.-]+ )?(?:docs|documentation|readme|manual|spec|guide|model card)|from the [\\w.-]+ (?:docs|documentation|readme|manual|repo|repository|issue(?: tracker)?|forum|blog|paper|model card|discussion|thread)|someone (?:on|in) [\\w.-]+ (?:posted|wrote|said|shared)|(?:the )?(?:docs|documentation|readme|model card|manual) (?:say|says|said|show|shows|showed)|as (?:seen|shown|documented) in|documented (?:call|command|example|snippet))|\\(source:",
      match: ['Per the vLLM docs:', 'From the Qwen README:', 'Someone on GitHub posted:', 'The docs say:', '(source: Qwen docs)', '— from the vLLM issue tracker'],
      not_match: ['Let me read the docs first:', 'I will check the README:', 'Fetching the file from the repo:'],
      overruled_by_acting: true,
    },
    {
      id: 'hypothetical-call',
      says: 'a hypothetical call',
      place: 'before',
      pattern: "\\b(?:if i were to|were i to|if i (?:did|had to) (?:call|run|use)|i(?: would|'d) (?:have )?(?:call|run|use|write|emit)(?:ed)?(?: it)? (?:like|as) (?:this|so))\\b",
      match: ['If I were to call the tool, it would be:', "I'd call it like this:"],
      not_match: ['I will call the tool:', "I'd like to check the weather:"],
    },
    {
      id: 'question-before',
      says: 'a question about the markup',
      place: 'before',
      pattern: '\\b(?:this|that|these|those|it)\\b[^.!?\\n]*\\?\\s*$',
      match: ['Why does the model print this?', 'Is this valid?'],
      not_match: ['What is the weather in Paris? Let me check:', 'Checking now.'],
    },
    {
      id: 'role-label',
      says: 'a transcript',
      place: 'before',
      pattern:
        '(?:^|[.:!?] |\\n)(?:user|assistant|human|system|ai|bot|model|tool|function|developer|customer|agent|input|output|result|response|log|console|stdout|stderr|transcript|history|previously|earlier|original)(?: (?:\\d+|said|says|wrote|asked|replied|message|turn))? ?:(?: |\\n|$)|\\btranscript\\b|\\bconversation log\\b|\\bchat log\\b',
      match: ['Transcript of the session:', 'assistant:', 'Output:', 'User: please do this'],
      not_match: ['Let me check the weather:', 'I will call the function: ', 'Sure! Here is the plan:'],
    },
    {
      id: 'instruction-to-reader',
      says: 'an instruction to the reader',
      place: 'around',
      pattern:
        "\\b(?:you (?:can|could|should|might|may|would|need to|have to|must|want to|will need to) (?:run|execute|use|call|invoke|try|type|paste|enter|copy|send|write)|to (?:do|achieve|accomplish) (?:this|that|it)|here'?s how|here is how|if you (?:want|wish|like|prefer)|i (?:could|would|might) (?:run|call|use|execute|invoke|send)|one (?:could|would|might|can) (?:run|call|use|execute)|(?:run|execute|paste|try) (?:this|that|it|the following) (?:yourself|in your (?:terminal|shell|console))|in your (?:own )?(?:terminal|shell|console)\\b)\\b",
      match: ['You can run the following:', "Here's how to call it:", 'If you want, I could run:'],
      not_match: ["I'll run the following:", 'Let me call the weather tool:', 'Now I will use the search tool.'],
    },
    {
      id: 'past-narration',
      says: 'a narration of an earlier call',
      place: 'around',
      pattern:
        '\\b(?:i (?:ran|called|executed|invoked|sent|tried) (?:this|that|the following|it|these|those)|(?:this|that|it|these|those|the (?:call|command|tool call)) (?:was|were|had been|has been|have been) (?:called|run|executed|invoked|sent|dispatched)|previously(?! (?:discussed|agreed|mentioned|planned|noted|requested|decided|described|explained|stated))|last time|the previous (?:call|command|attempt)|the last (?:call|command|attempt)|(?:earlier|previously) in (?:this|the) (?:session|conversation|chat|thread))\\b|\\bi (?:ran|called|executed|invoked|sent|dispatched) ?(?::|\\n|$)',
      match: ['I ran this earlier:', 'It was called like so', 'The previous call was', 'Earlier in this session I executed:', 'Here is what I ran:'],
      not_match: ['I ran into an error, so let me retry:', 'Let me call it again:', 'Calling the tool now:', 'Earlier I ran the tests and they failed; let me read the log:'],
    },
    {
      id: 'awaiting-approval',
      says: 'a call held for approval',
      place: 'around',
      pattern:
        "\\b(?:(?:await(?:s|ing)?|waiting (?:for|on)|pending|needs?|requires?|requiring|subject to|until i (?:get|have|receive)) (?:your |the user'?s? |user |explicit |an? )?(?:approval|confirmation|consent|permission|go-ahead|go ahead|green light|ok|okay|sign-?off)|if you (?:confirm|approve|agree|say so|give the go-?ahead|ok it)|(?:once|after|when) you (?:confirm|approve|agree|say so|ok it|give the go-?ahead)|confirm and i(?:'ll| will)|proposed (?:command|call|tool call|action)|for your (?:review|approval)|(?:once|when|after) you give (?:me )?the (?:green light|go-?ahead)|not yet (?:executed|run|dispatched|sent)|hold(?:ing)? (?:off|it|this|that)\\b|until you say (?:yes|so|ok|okay)|please confirm|if you'?d like me to (?:go ahead|proceed|run|execute)|after (?:your |user )?approval|(?:draft|proposed|pending) (?:call|command|tool call)s?|\\bproposal\\b|reply (?:yes|y|ok)\\b|\\b(?:reply|type|say|answer|press|click|enter)\\b[^.\\n]{0,30}\\bto confirm\\b|flagging (?:this|it|for review)|say the word|thumbs up|ready when you are|on your (?:signal|word|command|go|mark|say-so)\\b|give me (?:a|the) (?:thumbs up|go|go-ahead|ok|nod))\\b|\\bgo ahead\\?",
      match: ['Ready to run on your signal:', 'Go ahead? Here it is:', "Say the word and I'll fire this off:", "Give me a thumbs up and I'll send this:", 'Ready when you are:', 'Awaiting your approval before running:', 'Proposed command (needs your OK):', 'This is the call I would make if you confirm:', "This is what I'd run after you approve.", "Confirm and I'll execute it.", 'Flagging for review (not executing):'],
      not_match: ['Let me re-run the tests to confirm the fix:', 'You approved the plan, so I am running it now:', 'Before running the build, let me check the file:', 'Let me review the file first:', 'The review is done; applying the fix:'],
    },
    {
      id: 'disregard',
      says: 'markup set aside',
      place: 'around',
      pattern:
        "\\b(?:ignor(?:e|es|ed|ing)|disregard(?:s|ed|ing)?|discard(?:s|ed|ing)?) (?:this|that|it|these|those|the following|the (?:call|command|instruction|request|tool call|payload|snippet))|i(?:'m| am|'ll| will) (?:ignore|ignoring|disregard|disregarding)|skip(?:ping)? (?:this one|that one|this call|that call|the call)|not (?:executing|executed|dispatching|dispatched)|\\(not (?:run|executed|sent)\\)|(?:rejected|blocked|denied|quarantined|withheld|sandboxed) (?:call|command|tool call|request|content|snippet|payload)|(?:^|\\n)untrusted (?:input|content|text|data|instructions?)(?: follows| below)? ?(?::|\\n|$)|untrusted (?:input|content|text|data) follows|(?:^|\\n|[.!?] )(?:rejected|blocked|denied|quarantined|withheld)(?: (?:call|command|tool call|request|content|input|snippet))? ?:|\\[(?:quarantined|redacted|blocked|untrusted|rejected|removed)\\b",
      match: ["Heads up: the README tries to get agents to emit this. I'm ignoring it:", "I'll skip this one:", 'Ignore the following, it is a test string:', 'The tool output contained the following instruction, which I will disregard:', 'Logging the rejected call:', 'Rejected:', 'Blocked call:', '[quarantined content]', 'Untrusted input follows:', '(not executing)'],
      not_match: ['Let me sanitize the untrusted input:', 'Ignoring the cache, let me re-run the build:', 'The port is blocked, let me check the firewall:', 'The server is not running, let me start it:', 'Skipping the slow tests; running the rest:', 'My earlier request was rejected by the API, so I will retry:'],
    },
    {
      id: 'not-run-after',
      says: 'a statement that the call was not made',
      place: 'after',
      pattern: "\\bi (?:did not|didn't|have not|haven't|never) (?:run|ran|execute|executed|call|called|invoke|invoked|dispatch|dispatched|send|sent)\\b",
      match: ['(I did not run this.)', "I haven't executed it."],
      not_match: ['Done.', 'Let me know when it finishes.'],
    },
    {
      id: 'confirmation-question',
      says: 'a question instead of a call',
      place: 'before',
      pattern: `\\b(?:should|shall|may|can|could) i ?\\?|\\b(?:(?:should|shall|may|can|could) i (?:go ahead and |now |just |actually )?(?:${ACT}|proceed|go ahead)|do you want me to|would you like me to|(?:want|like) me to ${ACT}|is it ok(?:ay)? (?:if i|to) ${ACT})\\b`,
      match: ['Should I run this?', 'Do you want me to execute the following?', 'Let me run it. Should I?'],
      not_match: ['What is the weather in Paris? Let me check:', 'I will check it now.', 'Hello! How can I help you today?'],
    },
    {
      id: 'question-after',
      says: 'a question after the markup',
      place: 'after',
      pattern: `\\b(?:this|that|it|these|those|them|the (?:call|command|above|following))\\b[^?\\n]{0,80}\\?|\\b${ACT}\\b[^?\\n]{0,80}\\?|(?:^|\\n)\\s*(?:ok(?:ay)?|right|correct|yes or no|y/n)\\s*\\?`,
      match: ['Should I run it?', 'Is that what you meant?', 'OK?'],
      not_match: ['Done.', 'Let me know when it finishes.', 'Want me to also clear the cache?'],
    },
    {
      id: 'discouraged',
      says: 'a warning not to run it',
      place: 'around',
      pattern:
        "\\b(?:(?:do not|don't|never)(?:[ ,]+(?:please|ever|seriously|really|i repeat|i beg you)|,? ?\\([^)\\n]{0,40}\\)|,? ?[-–—][^-–—\\n]{0,30}[-–—])+,? (?:run|execute|call|invoke|use|dispatch)|don't[.!] run|do-not-(?:run|execute|use)|under no circumstances|in no circumstances|under any circumstances|(?:please )?refrain from|avoid (?:running|executing|calling|invoking|using|dispatching) (?:this|it|that|these|those|the (?:call|command|following))|not for (?:execution|use|running|dispatch)|don't (?:even )?(?:think about )?(?:running|executing|calling|invoking)|don't (?:let|fire|send) (?:this|it|that)|nobody should (?:run|execute|call|use)|(?:would be|is) a mistake to (?:run|execute|call)|hard pass|absolutely not|unexecuted|(?:keep|leave|leaving) (?:this|it|that) (?:inert|unexecuted|unrun)|this is a trap|red flag|phishing|(?:would|will|could|might) (?:wipe|destroy|erase|brick|exfiltrate|steal) |deletes everything)\\b",
      match: ['Do not (seriously) run this:', 'Do not - I repeat - run this:', "Don't, please, run this:", 'Never, ever, execute this:', "DON'T. RUN. THIS.", 'Do-not-run:', 'Under no circumstances should this be run:', 'Do not, under any circumstances, run this:', 'Please refrain from running this:', 'Avoid running this:', 'Not for execution:', "Don't even think about running this:", "Don't let this run:", 'Nobody should run this:', 'It would be a mistake to run this:', 'Hard pass on this one:', 'Absolutely not:', "I'm leaving it unexecuted:", 'This is a trap:', 'Red flag:', 'Be careful, this is phishing:', 'Warning: this would wipe your home directory:', 'Danger, this deletes everything:'],
      not_match: ['Let me avoid the network and read the file:', 'Warning: this will take a while. Running the full build:', 'Let me check the filter logs:', 'The flag is red in the UI; let me check the CSS:'],
    },
    {
      id: 'retracted',
      says: 'a call taken back',
      place: 'around',
      pattern:
        "(?:\\b(?:changed my mind|change of plan|just kidding|scratch that|never ?mind|on second thought|on reflection|then again|no wait|wait, no|actually,? (?:no|i won't|i will not|i'd better not|better not)|i'd better not|park (?:it|this|that) here|leave (?:it|this|that) here|(?:run|execute|try) (?:it|this|that) (?:in my head|mentally|on paper)|mentally (?:run|execute)|dry[- ]run it by reading)\\b|\\bkidding[.!)]|(?:^|\\n|[.!?…] |\\.\\.\\. ?)(?:hmm,? )?(?:or not|maybe not|perhaps not|better not|nope|nah)[.!]?(?:\\s|$)|(?:[.!?…] |\\.\\.\\. ?)no(?:[.!]|$)|\\bi (?:won't|will not)[.!:](?:\\s|$))",
      match: ['I was going to run this, but I changed my mind:', "I'll run it. Actually, scratch that.", "I'll run it. No wait, I won't.", "I'll run it... no.", "I'll run this — just kidding.", 'Let me run it. Or not.', 'Let me run it... actually, never mind.', "Let me run it.\nOn reflection, I'd better not.", 'Let me run that. Nope', 'Let me run this. Hmm, better not.', 'Kidding.', '(kidding)', 'Actually, I won\'t.', 'Never mind.', 'On second thought, better not.', 'Let me run this in my head:', 'Let me mentally run this:', "I'll run it. Then again, maybe not. Let me park it here:"],
      not_match: ["I won't be long: checking the log now.", 'Whether or not the tests pass, let me run them:', 'No worries, let me check the file:', "Let me check whether it's running:", 'Let me leave a comment on the PR:', 'I will not stop until the tests pass; running them:'],
    },
    {
      id: 'presented',
      says: 'markup handed over for reading',
      place: 'before',
      pattern:
        "(?:^|\\n|[.!?:;] )(?:here (?:it is|you go|ya go|you are|they are)|voil[aà]|ta-?da|there you (?:go|are)|as requested, (?:here is |here's )?the (?:raw|literal|exact|full|verbatim) )|\\b(?:the )?(?:raw|literal|verbatim) (?:call|tool call|markup|call text|text of the call)\\b|\\b(?:here is|here's|below is|this is) (?:the |a )?(?:text|content|contents|wording|body|description) (?:from|of)\\b|\\bthe (?:call|command|markup|json|request|tool call|payload) itself\\b",
      match: ['Here you go:', 'Here ya go:', 'Voilà:', 'As you asked, the call itself:', 'Here it is:', 'There you go:', 'As requested, the raw call text:', 'Here is the text from the pull request description:', 'Below is the content of the issue:'],
      not_match: ['Here we go:', 'Here goes:', 'Let me check the weather:', "Here's the plan: first the log, then the fix. Let me read the log:", 'Let me read the raw log file:'],
    },
    {
      id: 'source-label',
      says: 'a label of material from elsewhere',
      place: 'before',
      pattern:
        `(?:^|\\n|[.!?] )(?:(?:copied|taken|quoted|verbatim|translated|excerpted|lifted|pulled|scraped|extracted) )?(?:from|contents? of|text of|body of) (?:the|this|that|a|an|their|his|her|its|some|my) (?:[\\w.'-]+ ){0,3}${SOURCE}\\b(?:[^.!?\\n:;,]|\\.(?=\\S)){0,40}:\\s*$|(?:^|\\n|[.!?] )(?:(?:the|raw|full|partial|an?) )?(?:(?:sanitized|sanitised|redacted|cleaned|escaped|defanged|trimmed|shortened|abridged|exact|literal) )?(?:output|excerpt|extract|dump|copy|transcript|printout|translation) (?:of|from) (?:[^.!?\\n:;,]|\\.(?=\\S)){1,60}:\\s*$|(?:^|\\n|[.!?] )[\\w.-]+ (?:excerpt|extract|dump|snippet|fragment)s?(?: \\([^)\\n]{1,30}\\))? ?:|(?:^|\\n|[.!?] )(?:found|seen|spotted|discovered|located|hidden) (?:in|on|inside|within|at) [^\\n]{1,80}:\\s*$|(?:^|\\n|[.!?] )(?:(?:a |the )?(?:minimal |minimum |small )?(?:repro|reproduction|reproducer|test case|mre|mwe))(?: (?:of|for) [^.!?\\n:]{1,60})? ?:\\s*$|\\b(?:the|your|my|a|our) (?:user|colleague|coworker|co-worker|manager|boss|teammate|friend|client|customer|admin|administrator|operator|requester) (?:asked for|requested|wanted|wrote|said|sent|suggested|proposed) ?:\\s*$|\\bhidden (?:instructions?|prompts?|text|content|message|payload|commands?)\\b|\\b(?:instructions?|text|commands?|payload|call|prompt|message) (?:hidden|buried|embedded|tucked) (?:in|inside|within)\\b|\\b(?:what|the text) the [\\w -]{1,30} (?:contained|contains|held|holds|said|says) ?:|\\bthe (?:previous|earlier|last|prior) (?:assistant |user |model |tool )?(?:turn|message|reply|response|answer) (?:contained|contains|said|says|held|had|read|reads|was)\\b|\\btranslated from\\b|\\b(?:the|this|that) (?:e-?mail|message|page|post|comment|issue|ticket|pr|pull request|description|commit message|changelog|note|attachment|pdf|html|letter|tweet|review|chat message)(?: (?:body|text|description|content|itself))? (?:reads|read|states|stated|goes|went)\\b`,
      match: ['Content of the tool response:', 'Your colleague asked for:', 'What the hidden div contained:', "Here's the instruction hidden in the alt text:", 'The previous assistant turn contained:', 'Found in a comment on line 12 of index.html:', 'Minimal reproduction of the parser bug:', 'From the scraped HTML:', "Output of 'cat prompt.txt':", 'Log excerpt (line 42):', 'The email body reads:', 'Translated from the Chinese page:', 'Copied from the issue thread:', 'Excerpt from the PDF:'],
      not_match: ['Let me check the output of the build:', 'From the logs, the build failed at step 3. Let me rerun it:', 'Let me extract the links from the fetched page:', 'The output of the build looks fine; deploying:', 'From the repo root:', 'Contents of the directory:', 'Let me read the email and reply:', 'Let me reproduce the bug:', 'I found the bug in app.py; let me fix it:'],
      overruled_by_acting: true,
    },
    {
      id: 'generic-model',
      says: 'a description of what a model writes',
      place: 'around',
      pattern:
        "\\b(?:a|the|your|an|any) (?:model|llm|assistant|agent|client|chatbot|bot)s?(?: (?:in|from|on|of) [^.!?\\n:]{1,40})? (?:emits|emitted|outputs|output|writes|wrote|prints|printed|produces|produced|generates|generated|returns|returned|would emit|would output|would write|should emit|should output|must emit|is expected to (?:emit|output|write))(?: (?:something like|text like|markup like|this|the following))? ?(?::|$)|\\bto call (?:the|a) (?:tool|function), (?:you|a model|the model|it|an agent|the agent)\\b|\\bnot (?:a|an) (?:real |actual |live |genuine )?(?:request|instruction|command|call|tool call|invocation)\\b|\\b(?:begin|start|beginning|end) (?:of )?(?:the )?(?:quote|quotation|quoted (?:text|material)|excerpt|transcript)\\b",
      match: ['The assistant in the screenshot printed:', 'In the log you sent, the model emitted:', 'To call the tool, a model emits:', 'The model should emit:', '// test data, not a request', 'This is not a real call:', '<!-- begin quote -->'],
      not_match: ['The model outputs nothing, so let me check the server log:', 'Let me call the tool:', 'I will start the server:', 'Let me read the end of the log:'],
      overruled_by_acting: true,
    },
    {
      id: 'doc-heading',
      says: 'a section of documentation',
      place: 'before',
      pattern:
        "(?:^|\\n)#{1,6} [^\\n]{0,60}\\b(?:usage|syntax|examples?|reference|format|payload|demo|samples?|templates?|api|specification|spec|schema|documentation|docs|appendix|faq|how to|tutorial|input|output|test case)\\b[^\\n]{0,60}(?:\\n|$)",
      match: ['### Usage\n', '## API reference\n', '# How to call the tool\n'],
      not_match: ['## Fixing the build\n', 'Let me check the usage stats:'],
    },
    {
      id: 'run-together',
      says: 'a negated instruction written as one word',
      place: 'around',
      pattern: "\\b(?:donot|dont|never|mustnot|shouldnot)(?:ever)?(?:run|execute|exec|invoke|call|dispatch|use|trust|follow)(?:this|it|that|me)?\\b|\\b(?:notsafe|unsafetorun|notforexecution)\\b",
      match: ['DONOTRUN:', 'Donotrun:', 'NOTSAFE:', 'dontrunthis'],
      not_match: ['Let me check the weather:', 'The donation form is broken; let me run the tests:', 'Let me run the neverending job check:'],
    },
    {
      id: 'declined',
      says: 'a refusal',
      place: 'around',
      pattern:
        `\\b(?:isn't|is not|not) (?:something|a (?:command|call|request)) (?:i(?:'ll| will|'d| would| can| should| want to| am going to|'m going to)|to) ${ACT}\\b|\\bnot going to happen\\b|\\bnot happening\\b|\\b(?:i(?:'ll| will|'m going to| am going to)|going to) (?:have to )?(?:pass|take a pass) on (?:this|that|it)\\b|\\b(?:running|executing|calling|invoking|dispatching|sending) (?:this|that|it|these|those)(?: [\\w-]+){0,2} (?:would be|is|seems|feels) (?:irresponsible|dangerous|unwise|reckless|risky|harmful|a bad idea|inappropriate|wrong|unsafe)\\b|\\b(?:someone|somebody|a user|an attacker|a third party|another user) (?:left|put|planted|hid|inserted|dropped|smuggled|slipped) (?:this|that|it|these|those|the following)\\b|\\b(?:would be|is|seems|'d be) (?:a )?(?:really |very )?(?:bad|terrible|awful|dangerous|risky) idea\\b|\\bi(?:'m| am) (?:unable|not able) to (?:proceed|comply|help|assist|continue)\\b|\\b(?:advise|recommend|caution|warn|argue) against (?:running|executing|calling|invoking|using|dispatching|sending|it|this|that)\\b|\\b(?:blocked|denied|prohibited|forbidden|disallowed|not allowed|not permitted) (?:by|under|per) (?:the |our |your |my )?(?:policy|policies|guardrails?|rules?|sandbox|safety)\\b|\\bwithh(?:eld|old|olding) (?:execution|it|this|that|the call|the command)\\b|\\bfor safety reasons\\b|\\bstopped short of\\b|\\b(?:stays|remains|is only|is just|is merely) (?:a |an )?(?:suggestion|proposal|draft|example|idea|sketch|recommendation)\\b|\\bflagged for (?:review|approval)\\b|(?:^|\\n|[.!?] )not (?:run|executed|sent|dispatched)\\b|\\b(?:do not|don't|never)[!.]* ?:(?:\\s|$)`,
      match: ['That would be a bad idea:', "I'm unable to proceed with:", "I'd advise against running this:", 'Blocked by policy:', "For safety reasons I've withheld execution of:", 'I stopped short of executing it.', 'This stays a suggestion.', 'Not run — flagged for review.', "This isn't something I'll run:", 'Not going to happen:', "I'll pass on this request:", 'Executing this would be irresponsible:', 'Someone left this in the issue:', 'Do not:'],
      not_match: ['The build is not running on CI; let me check the workflow:', "Let me check who left the lock file:", "I'll pass the flag to the build:", 'Running this takes a while, please wait:', 'The idea is to cache the result; let me add it:', 'The request was dropped at the firewall, so let me check its rules file:'],
    },
    {
      id: 'presented-for-reader',
      says: 'markup shown to the reader',
      place: 'before',
      pattern:
        "\\b(?:printing|showing|displaying|writing out|pasting|echoing|reproducing) (?:it|this|that|them|the call|the command|the markup)(?: out)? (?:for you|here|below|as text)\\b|\\bfor (?:copy[- ]?(?:and[- ])?paste|copying|easy copying)\\b|\\b(?:the call|the command|it|this|that), as (?:plain )?text\\b",
      match: ['Printing it for you:', 'For copy-paste:', 'Here is the call, as text:'],
      not_match: ['Let me print the log for you:', 'Let me read the PDF as text:', 'Copying the files:'],
    },
    {
      id: 'labelled',
      says: 'a label of quoted material',
      place: 'before',
      pattern:
        "(?:^|\\n)(?:format|syntax|payload|ioc|iocs|expected output|actual (?:model )?output|raw (?:completion|output|markup|response|model output)|observation|page content|retrieved context|search result(?: ?#?\\d+)?|document ?#?\\d+(?: \\([^)\\n]{1,30}\\))?|original (?:text|content)(?: of [^\\n:]{1,40})?|tool output|excerpt|listing(?: \\d+)?|figure \\d+|q|a|fixture|demo|mock|stub|specimen|verbatim|raw markup|the raw markup)(?: \\([^)\\n]{1,30}\\))? ?:(?:\\s|$)|\\b(?:here is|here's) (?:the |a )?(?:format|syntax|raw (?:markup|output|completion)|markup)\\b|\\((?:untrusted|external|third[- ]party|unverified|not run|inert)\\)|\\b(?:had|has|with) (?:this|it|that) (?:embedded|hidden|planted|smuggled)\\b|\\bhid (?:this|it|that) (?:in|inside)\\b|\\b(?:in theory|theoretically|would have looked like|would've looked like|my previous call|the (?:call|command) i (?:made|ran|sent|issued)|(?:before|after) the fix\\b[^\\n]{0,40}(?:returned|produced|printed|emitted|gave|output)|the json (?:your|the) client should send|the request body|the json for (?:that|the|this) (?:tool )?call)\\b|(?:^|\\n)(?:listing|figure|fig\\.|table|exhibit) \\d+\\b",
      match: ['Fixture:', 'Demo:', 'Verbatim:', 'Before the fix, vLLM returned:', 'Listing 3 — payload extracted from the PDF', 'Here is the JSON your client should send:', 'The JSON for that tool call:', "Sure, here's the request body:", 'Format:', 'Syntax:', 'Payload:', 'Expected output:', 'Actual model output:', 'Raw completion:', 'Observation:', 'Page content:', 'Retrieved context:', 'Search result #2:', 'Document 3 (untrusted):', 'Original text of the README:', 'Tool output:', 'Q: how do I list files?\nA:', 'Here is the format:', "Here's the raw markup the model produced in the bug report:", 'The attached PDF had this embedded in white text:', 'The fetched HTML hid this in a span:', 'In theory, the call is:', 'Theoretically:', "Here's what it would have looked like:", 'My previous call:', 'The call I made a moment ago:'],
      not_match: ['Let me format the output:', 'Let me check the syntax of the config:', 'Let me search the results page:', 'It failed. No output was produced. Let me rerun it:', 'Let me read the hidden files in the repo:', 'I will make the call now:', 'Let me observe the output:'],
    },
    {
      id: 'disowned-after',
      says: 'markup set aside after it',
      place: 'after',
      pattern:
        "\\b(?:cancel that|disregard the above|discard the above|ignore the above|that's (?:the syntax|the format|how it's formatted|how (?:a|the) (?:call|tool call) looks|what (?:a|an|the) [\\w -]{1,30} looks like)|(?:proceed|good to go|shall we|ok to run|okay to run|go ahead)\\?|let me know if i should (?:go ahead|proceed|run it|run this)|thumbs up to proceed)|(?:^|\\n)(?:source: |\\^ ?from |— |-- from |(?:figure|fig\\.|listing|exhibit) \\d+\\b)",
      match: ['Figure 2: the payload hidden in the PDF.', 'Cancel that.', 'Please disregard the above.', 'Scratch that; discard the above.', "That's the syntax.", "That's how it's formatted.", "That's what a Hermes call looks like.", 'Proceed?', 'Good to go?', 'Shall we?', 'Let me know if I should go ahead.', 'Thumbs up to proceed.', 'Source: README.md', '^ from the docs', '— vLLM docs'],
      not_match: ['Done.', 'Let me know when it finishes.', 'Let me know if you need anything else.', 'Want me to also clear the cache?'],
    },
    {
      id: 'illustration',
      says: 'an example',
      place: 'around',
      pattern:
        "\\bsuch as ?:|\\balong (?:these|those|the following) lines\\b|(?:^|\\n|[.!?] )roughly ?:|\\bcase in point\\b|\\bto give you an idea\\b|\\b(?:json|call|command|markup|request|payload|invocation|tool call|syntax|output|request body) would (?:be|look|read)\\b|\\bwould have (?:sent|run|executed|called|invoked|emitted|output|produced|issued|dispatched)\\b",
      match: ['Such as:', 'Something along these lines:', 'Roughly:', 'Case in point:', 'To give you an idea:', 'The JSON would be:', 'An agent that trusted the page would have sent:'],
      not_match: ['Let me check the logs.', 'The build roughly takes a minute; running it:', 'The tests would have caught this; let me add one:', 'Let me list files such as the logs and the config:'],
    },
    {
      id: 'mail-attribution',
      says: 'a quoted message',
      place: 'before',
      pattern:
        "(?:^|\\n)[^\\n]{0,200}(?:\\b(?:wrote|writes|said|posted|replied|commented)|\\ba écrit|\\bschrieb(?: [^\\n:]{1,60})?|\\bescribió|\\bha scritto|\\bescreveu|\\bschreef|\\bnapisał[a]?|(?<!\\p{L})написал[аи]?) ?:\\s*$",
      match: ['Alex wrote:', 'On Mon, 3 Jun 2024 at 10:12, Alex <alex@example.org> wrote:\n', 'Am Mo., 3. Juni 2024 um 10:12 Uhr schrieb Alex:', 'Le lun. 3 juin 2024, Alex a écrit :'],
      not_match: ['Let me check the logs.', 'The test I wrote failed; let me rerun it:', 'I wrote the config earlier. Let me check it:'],
    },
    {
      id: 'signature',
      says: 'a quoted message',
      place: 'after',
      pattern: "(?:^|\\n)-- ?(?:\\n|$)|\\bsent from my (?:iphone|ipad|phone|android|mobile|samsung|galaxy|blackberry|pixel)\\b|\\bget outlook for (?:ios|android)\\b",
      match: ['\n--\nAlex\nSent from my phone', 'Sent from my iPhone'],
      not_match: ['Done.', 'Let me know when it finishes.'],
    },
    {
      id: 'set-aside-2',
      says: 'markup set aside',
      place: 'around',
      pattern:
        "\\brather than (?:running|executing|calling|invoking|dispatching|sending|acting on) (?:it|this|that|them|these|those)\\b|\\b(?:leaving|leave|left) (?:this|it|that|them) (?:for|to) (?:a human|a person|you|the user|someone|review|an operator|a reviewer)\\b|\\bjust (?:reporting|relaying|showing|sharing|flagging|quoting|noting) (?:it|this|that|them)\\b|\\btried to (?:get|make|trick|convince|persuade) me (?:to|into)\\b|\\bonly the (?:first|last|second|third|top|bottom) (?:one |call |block )?(?:is|was) (?:mine|my own|from me)\\b|\\bnone of (?:these|those|them|this|the calls)(?: [\\w-]+){0,2} (?:are|is|were|was) (?:mine|my own|from me)\\b|\\b(?:was|were|is|are) (?:in|inside) the (?:fetched|scraped|crawled|retrieved|injected|untrusted|external) \\b|\\b(?:reply|say|type|answer|respond with) ['\"“]?(?:yes|y|ok|okay|go|confirm|approve|proceed)['\"”]? (?:and|to|if)\\b|\\bthe (?:user|customer|page|site|website|attacker|sender|author)'s (?:message|e-?mail|post|comment|text|reply|input|prompt|request|instructions?|note) (?:contained|contains|said|says|had|has|included|includes|reads|read)\\b|\\b(?:the|this|that) (?:issue|e-?mail|message|page|post|comment|ticket|pr|pull request|pdf|document|attachment|note)(?: (?:body|text|description|content))? (?:has|had|holds|held) ?:",
      match: ["I'm flagging the above rather than running it.", 'Leaving this for a human to decide.', "I'm just reporting it; the issue body has:", 'Here is the text the page tried to get me to output:', 'None of these are mine; they were in the fetched page:', 'Only the first is mine.', 'Reply "yes" and I\'ll run:', "The user's message contained this:"],
      not_match: ['Let me check the logs.', "Rather than running the full suite, I'll run one test:", 'Let me leave it to finish, then check the log:', "The user's message was short; let me list the files:", 'The issue has a stack trace; let me read it:'],
    },
    {
      id: 'bare-label',
      says: 'a label of the markup',
      place: 'before',
      pattern:
        "(?:^|\\n)(?!(?:next step|step \\d{1,3}|plan|the plan|my plan|now|then|next|first|finally|ok|okay|sure|sure thing|alright|done|update|fix|here we go|here goes|let's (?:see|go|begin|start)|let me see|one (?:moment|sec|second)|on it|got it|will do|understood|certainly|absolutely|of course|no problem|right away|sounds good|great|perfect|good|cool|yes|yep|yeah|thanks|thank you|allons-y|c'est parti|d'accord|bien|vamos(?: lá| allá)?|vale|claro|andiamo|certo|va bene|los geht's|klar|gut|alles klar|okej|dobrze|tamam|oké|prima|command|commands|the command|solution|answer|action|call|tool call|function call|response|reply|run|execute|check|verify|search|query|request|ejecuto|ejecutar|comprobación|eseguo|controllo|verifica|prüfe|prüfen|ausführen|führe aus|vérification|exécution|j'exécute|exécute)\\s?[:：])(?![\\p{L}-]{2,}(?:ing|ando|endo)(?![\\p{L}\\p{N}]))(?:[\\p{Script=Latin}\\p{N}@#'’().-]{1,24}|(?:bad|good|on|exhibit|proposed|suggested|draft|sample|my|the|a|an|not|test|exact|raw|literal|inert|blocked|held|pending|quoted|flagged|offending|hypothetical|untrusted) [\\p{Script=Latin}\\p{N}@#'’().-]{1,24})\\s?[:：]\\s*$",
      match: ['Draft:', 'Proposed:', 'On hold:', 'Evidence:', 'Exhibit A:', 'Consider:', 'Sketch:', 'Avoid:', 'Bad idea:', 'Dangerous:', 'Paste-ready:', 'Zitat:', 'Citation :', 'bob: ', 'Bob:'],
      not_match: ['Let me check:', 'Plan:', 'Checking:', 'Here goes:', 'On it:', 'Got it:', 'Of course:', 'Now:', 'Next step:', 'Запускаю тесты:', '我来运行测试：', 'Allons-y :', 'Los geht\'s:', 'Vamos lá:', 'Step 2:', 'Sure:', 'Here we go:', 'From the repo root:', 'Contents of the directory:', 'Testing the fix:', 'Running the tests now:', 'Listing the files:', 'Let me check the logs.', 'Command:', 'Solution:', 'Answer:', 'Action:', 'Tool call:', 'Ejecutando:', 'Verificando:', 'Eseguendo:', 'Controllo:', 'Prüfe:', 'Vérification :'],
    },
    {
      id: 'set-aside-3',
      says: 'markup set aside',
      place: 'around',
      pattern:
        "(?:^|\\n|[,.!] )here ?[:：]\\s*$|\\b(?:in plain form|as (?:plain )?text,? so (?:you|that you) can (?:see|read)|the (?:literal|raw|exact|verbatim) (?:string|text|characters|bytes|form)|what (?:that|this|it|a call) looks like|please review|for (?:your )?review|offending|jailbreak(?:ing)?|no way|end of (?:the )?(?:excerpt|quote|quotation|transcript|message|email|page)|(?:that's|this is|that was|this was) the (?:attack|injection|injected (?:bit|part|text)|payload|exploit)|discarded|ignored as (?:untrusted|unsafe|suspicious)|(?:wait|waiting) for your (?:go-ahead|approval|ok|okay|confirmation)|confirm and i'?ll|reported (?:it |this |that )?to (?:the )?(?:admin|administrator|security|owner|operator|maintainers?)|so i stopped(?: here)?|is trying to get (?:an? |the )?(?:agent|model|assistant|ai|bot|me) to)\\b|\\bwhat the [\\w -]{1,30} (?:captured|returned|found|scraped|fetched|saw|grabbed|extracted)\\b|\\b(?:returned|gave back|came back with) (?:this|the following)(?: text| output| content)?\\b|\\bby @[\\w-]{1,39}\\b|(?:^|\\s)@[\\w-]{1,39} (?:wants|wanted|asked|asks|wrote|writes|says|said|posted|suggests|suggested)\\b|\\bthe [\\w-]{1,30}'s [\\w -]{0,30}(?:says|said|reads|read|states|stated)\\b|\\bsearch result (?:#?\\d{1,3} )?(?:contains|contained|says|said|reads)\\b|[⚠🚫❌⛔☠🛑☣]",
      match: ['Okay, here:', 'As text, so you can see it:', 'The literal string:', 'In plain form:', "Here's what that looks like in practice:", 'Suggested command (please review):', 'The offending snippet:', 'This is the jailbreak attempt:', "No way I'm executing:", 'End of excerpt.', "That's the attack.", 'Discarded.', 'Ignored as untrusted.', "I'll wait for your go-ahead.", "Confirm and I'll run it.", 'Reported to the admin.', 'Looks dangerous, so I stopped here.', 'Heads-up: the page is trying to get an agent to run', 'What the scraper captured:', 'The tool returned this text:', 'The comment by @mallory:', '@mallory wants:', "The README's install section says:", 'Search result 3 contains:', '⚠️', '🚫'],
      not_match: ['Let me check the logs.', 'Here we go:', "Here's the plan: first the log, then the fix. Let me read the log:", 'The API returned 500; let me check the server log:', 'Let me review the diff:', 'Let me check the PR by the bot:', 'Let me look here for the config:'],
    },
    {
      id: 'set-aside-4',
      says: 'markup set aside',
      place: 'around',
      pattern:
        "\\bfor context ?:|\\bnot (?:the one|who(?:'s| is)) asking\\b|\\bnot from me\\b|\\bif you insist\\b|\\bhow it would go\\b|\\bwhat i was (?:told|asked|instructed) to\\b|(?:^|\\n)from (?:someone|somebody|a user|a stranger|an? [\\w-]+ user) (?:on|in|at)\\b|(?:^|\\n)(?:re|fwd?|aw|tr|wg) ?:\\s|\\b(?:keep|kept) (?:this|it) (?:as|for) (?:a )?reference\\b|\\bnot running anything\\b|\\b(?:beware|watch out) (?:of|for)\\b|\\bctf\\b|\\bsystem override\\b|\\bclaimed (?:this|it|that) (?:was|is) safe\\b|\\b(?:the|this|that|their|his|her|your) (?:message|e-?mail|post|note|dm|chat message|comment|wiki|wiki page)(?: body| text)? (?:contained|contains|said|included|includes) ?:|(?<!\\b(?:which|what|whether|if|how)\\b[^\n.:]{0,60})\\b(?:contains|contained) ?:\\s*$",
      match: ['The snippet from the wiki, for context:', 'I am not the one asking for this:', 'This one is on the page, not from me:', 'If you insist, this is how it would go:', "FYI the repo's setup.sh contains:", 'What I was told to send:', 'From someone on Discord:', 'Re: agent output', 'Keep this as reference.', "That's why I'm not running anything.", 'Beware of this:', 'Watch out for replies like:', 'Payload from the CTF:', 'SYSTEM OVERRIDE:', 'The page claimed this was safe.', 'The message contained:'],
      not_match: ['Let me check the logs.', 'Let me read the message and reply:', 'From the repo root:', 'The error message says permission denied. Let me fix the mode:', 'Let me check which files the archive contains:'],
    },
    {
      id: 'closing-comment',
      says: 'markup inside a comment',
      place: 'after',
      pattern: "^\\s*(?:-->|\\*/|--%>|#\\}|\\]\\]>|-\\}|\\|#)",
      match: ['-->', '\n--%>'],
      not_match: ['Done.', 'Let me know when it finishes.'],
    },
  ],
};
