/**
 * A leak refused `no_advertised_tools` named no way out. Input: a raw OpenAI Chat stream with a
 * Hermes leak of a bash call (a response stream does not carry the request's tools), scanned twice.
 */

import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runGuard } from './helpers.js';

const SSE = 'fixtures/replay/openai-chat-hermes-dangerous-leak.sse';
const dir = mkdtempSync(join(tmpdir(), 'guard-hint-'));
copyFileSync(join(ROOT, SSE), join(dir, 'one.sse'));
copyFileSync(join(ROOT, SSE), join(dir, 'two.sse'));
const HINT = 'hint: 2 leaks were refused no_advertised_tools: the capture does not record the tools the request advertised; --tools NAME,... (or recovery.tools in the configuration) advertises them, so the calls can be recovered';

describe('the no_advertised_tools hint', () => {
  it('is said once per scan in the text summary, however many replies', async () => {
    const r = await runGuard(['scan', 'one.sse', 'two.sse'], { cwd: dir });
    expect(r.stdout).toContain('refused by:   no_advertised_tools 2');
    expect(r.stdout.split(HINT)).toHaveLength(2);
  });

  it('is in the stderr summary of the machine formats too', async () => {
    const r = await runGuard(['scan', '-f', 'ndjson', 'one.sse', 'two.sse'], { cwd: dir });
    expect(r.stderr.split(HINT)).toHaveLength(2);
  });

  it('goes once --tools names the tool: the call is then recovered', async () => {
    const r = await runGuard(['scan', '--tools', 'bash', SSE]);
    expect(r.stdout).not.toContain('hint:');
    expect(r.stdout).not.toContain('no_advertised_tools');
    expect(r.stdout).toContain('curl-pipe-shell');
  });
});
