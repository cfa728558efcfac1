/**
 * Never silent: a red-team pass over the capture formats (a fresh tester, real files and crafted
 * variants) found replies and calls that passed with exit 0. Each input is in
 * fixtures/bad-input/red-team-formats/ (fixtures/SOURCES.md), and each case failed before its fix.
 */
import { describe, expect, it } from 'vitest';
import { runGuard } from '../cli/helpers.js';

const DIR = 'fixtures/bad-input/red-team-formats';

interface Result {
  format: string;
  tool_calls: Array<{ name: string; arguments_error: string | null }>;
  recovery: { outcome: string; reason: string };
  inspection: { hits: Array<{ rule: string }> };
}

async function scan(file: string, extra: string[] = []) {
  const r = await runGuard(['scan', '-f', 'json', ...extra, `${DIR}/${file}`]);
  const doc = JSON.parse(r.stdout) as { results: Result[]; errors: Array<{ error: { code: string; severity: string } }> };
  return { code: r.code, results: doc.results, errors: doc.errors.map((e) => [e.error.code, e.error.severity]) };
}
const hits = (rs: Result[]) => rs.flatMap((r) => r.inspection.hits.map((h) => h.rule));

describe('red-team: capture formats', () => {
  it("Groq's failed_generation (the markup the server could not parse) is judged as a reply: the curl | sh call hits", async () => {
    const r = await scan('01a-groq-failed-generation-curl.json', ['--tools', 'bash']);
    expect(r.results.map((x) => [x.format, x.recovery.outcome])).toEqual([['openai-chat', 'recovered']]);
    expect(hits(r.results)).toContain('curl-pipe-shell');
    expect(r.code).toBe(1);
    // the real Groq error body (pydantic-ai cassette): a body without its request: the tools are not known
    const real = await scan('groq-tool-use-failed-error.pydantic-ai.json');
    expect(real.results.map((x) => [x.recovery.outcome, x.recovery.reason])).toEqual([['refused', 'no_advertised_tools']]);
  });

  it("Gemini MALFORMED_FUNCTION_CALL: the attempted call in finishMessage is read and inspected", async () => {
    const r = await scan('01b-gemini-malformed-function-call-finishMessage.json', ['--tools', 'bash']);
    expect(r.results.map((x) => [x.format, x.recovery.outcome, x.recovery.reason])).toEqual([['gemini', 'refused', 'unknown_family']]);
    expect(hits(r.results)).toContain('curl-pipe-shell');
  });

  it('OpenCode pending tool part: the arguments in state.raw are read', async () => {
    const r = await scan('04-opencode-pending-raw.json');
    expect(r.results.flatMap((x) => x.tool_calls.map((c) => [c.name, c.arguments_error]))).toEqual([['bash', null]]);
    expect(hits(r.results)).toContain('curl-pipe-shell');
  });

  it("mini-swe-agent: 2.x's ```mswea_bash_command blocks, and a bare message list under the *.traj.json name", async () => {
    const v2 = await scan('06a-mini-v2-mswea-fence.traj.json');
    expect([v2.results.length, v2.results.flatMap((x) => x.tool_calls).length, v2.results[0]!.format]).toEqual([10, 10, 'mini-swe-agent']);
    const bare = await scan('06b-mini-bare-list-github_issue.traj.json');
    expect([bare.results.length, bare.results.flatMap((x) => x.tool_calls).length]).toEqual([10, 10]);
    expect(new Set(bare.results.flatMap((x) => x.tool_calls.map((c) => c.name)))).toEqual(new Set(['bash']));
  });

  it("OpenRouter reasoning_details are the reasoning; a choice's text beside its message is reported", async () => {
    const details = await scan('07a-openrouter-reasoning-details-only.json', ['--tools', 'bash']);
    expect(details.results.map((x) => x.recovery.reason)).toEqual(['in_reasoning']);
    const text = await scan('07b-openai-choice-text-beside-message.json');
    expect(text.errors).toEqual([['INVALID_RECORD', 'error']]);
    expect(text.code).toBe(2);
  });
});
