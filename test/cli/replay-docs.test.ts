/**
 * The replay synopsis and mode default as the README, docs/replay.md, `--help` and the code give
 * them. Bug: the README's synopsis left out `--mode off`; docs/replay.md said the default came from
 * the configuration while `guard replay --help` said "default: observe".
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, runGuard } from './helpers.js';

const DEFAULT = "the configuration's inspection.mode, else observe";

describe('guard replay --mode', () => {
  it('is documented alike in --help, docs/replay.md and the README', async () => {
    const help = await runGuard(['replay', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(`--mode <mode> inspection mode: off, observe or enforce (default: ${DEFAULT})`);
    const doc = readFileSync(join(ROOT, 'docs/replay.md'), 'utf8');
    expect(doc).toContain("| `--mode off\\|observe\\|enforce` | inspection mode (default: the configuration's `inspection.mode`, else `observe`). |");
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('`guard replay FILE [--config F] [--mode off|observe|enforce] [--tools a,b] [--prose-ceiling X] [--events FILE]`');
  });

  it('takes its default from the configuration: inspection.mode enforce cuts a dangerous call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'guard-replay-mode-'));
    writeFileSync(join(dir, 'guard.config.yaml'), 'inspection:\n  mode: enforce\n');
    const sse = join(ROOT, 'fixtures/replay/openai-chat-dangerous-call.sse');
    const byConfig = await runGuard(['replay', sse], { cwd: dir });
    expect(byConfig.code).toBe(1);
    expect(byConfig.stderr).toContain('"type":"cut"');
    const observe = await runGuard(['replay', sse, '--mode', 'observe'], { cwd: dir });
    expect(observe.code).toBe(0);
    expect(observe.stdout).toBe(readFileSync(sse, 'utf8'));
  });
});
