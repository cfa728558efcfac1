/**
 * Hostile and fuzzed input for the agent-file readers (src/capture/agents/): random byte edits and
 * truncations of every agent fixture (the JSON documents split by envelope, the `.traj` files and
 * the Aider Markdown histories, which the resilience fuzz test does not pick up by extension)
 * never crash or hang guard and every problem names its file and a line within it; deeply nested
 * and oversized records are reported, not fatal.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { scanBytes, WHOLE_FILE_CODES, type ScanResult } from '../resilience/helpers.js';

const AGENT_DIRS = ['gemini-cli', 'cline-task', 'cline-ui', 'chat-messages', 'openhands', 'swe-agent', 'mini-swe-agent', 'aider', 'opencode', 'goose'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? filesUnder(p) : [p];
    });
}

const fixtures = AGENT_DIRS.flatMap((d) => filesUnder(join(ROOT, 'fixtures/capture', d))).map((path) => ({ name: relative(ROOT, path), bytes: readFileSync(path) }));

function lineCount(bytes: Buffer): number {
  const text = bytes.toString('latin1');
  const ends = text.match(/\r\n|\r|\n/g)?.length ?? 0;
  return ends + (/[\r\n]$/.test(text) || text.length === 0 ? 0 : 1);
}

function expectLocated(r: ScanResult, name: string, bytes: Buffer): void {
  expect(r.ends).toBe(1);
  // a hang guard, not a benchmark: 3 s was exceeded on a loaded 2-core machine
  expect(r.ms).toBeLessThan(10_000);
  const lines = Math.max(1, lineCount(bytes));
  for (const e of r.errors) {
    expect(e.file).toBe(name);
    expect(e.code).not.toBe('INTERNAL_ERROR');
    if (e.line === null) expect(WHOLE_FILE_CODES.has(e.code), `${e.code} without a line: ${e.message}`).toBe(true);
    else expect(e.line >= 1 && e.line <= lines, `${e.code} at line ${e.line} of ${lines}`).toBe(true);
  }
  for (const v of r.verdicts) {
    expect(v.reply.source.file).toBe(name);
    expect(v.reply.source.line >= 1 && v.reply.source.line <= lines).toBe(true);
  }
}

function applyEdits(bytes: Buffer, edits: Array<{ at: number; kind: string; byte: number }>): Buffer {
  let b = Buffer.from(bytes);
  for (const e of edits) {
    const i = Math.min(b.length, Math.floor(e.at * b.length));
    if (e.kind === 'set' && i < b.length) b[i] = e.byte;
    else if (e.kind === 'insert') b = Buffer.concat([b.subarray(0, i), Buffer.from([e.byte]), b.subarray(i)]);
    else if (e.kind === 'delete' && i < b.length) b = Buffer.concat([b.subarray(0, i), b.subarray(i + 1)]);
  }
  return b;
}

describe('fuzzing the agent-format fixtures', () => {
  it(`covers ${fixtures.length} fixtures of ${AGENT_DIRS.length} formats`, () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(AGENT_DIRS.length * 2 - 2);
  });

  it('never crashes or hangs on random byte edits, and locates every problem', async () => {
    const mutation = fc.record({
      fixture: fc.nat({ max: fixtures.length - 1 }),
      edits: fc.array(fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), kind: fc.constantFrom('set', 'insert', 'delete'), byte: fc.integer({ min: 0, max: 255 }) }), { minLength: 1, maxLength: 8 }),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 4 }),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ fixture, edits, cuts }) => {
        const { name, bytes } = fixtures[fixture]!;
        const mutated = applyEdits(bytes, edits);
        expectLocated(await scanBytes(name, mutated, cuts.map((c) => Math.floor(c * mutated.length))), name, mutated);
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  it('never crashes on any truncation (every 1/8th of each fixture); the replies before a cut of a split document are still read', async () => {
    for (const { name, bytes } of fixtures) {
      for (let k = 0; k < 8; k++) {
        const cut = bytes.subarray(0, Math.floor((bytes.length * k) / 8));
        expectLocated(await scanBytes(name, cut), name, cut);
      }
    }
    const traj = fixtures.find((f) => f.name.endsWith('marshmallow-1867-function-calling-demonstration.swe-agent.traj'))!;
    const half = traj.bytes.subarray(0, Math.floor(traj.bytes.length * 0.9));
    const r = await scanBytes(traj.name, half);
    expect(r.verdicts.length).toBeGreaterThan(0);
    expect(r.errors.some((e) => e.code === 'INVALID_JSON')).toBe(true);
  });
});

describe('hostile agent files', () => {
  it('a gemini message and a SWE-agent history item nested 100 000 levels deep are problems at their lines, not a crash', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const session = `{\n  "sessionId": "s",\n  "projectHash": "h",\n  "messages": [\n    {"id": "a", "timestamp": "t", "type": "gemini", "content": "ok", "toolCalls": [{"id": "c", "name": "x", "args": {"v": ${deep}}}]},\n    {"id": "b", "timestamp": "t", "type": "gemini", "content": "next"}\n  ]\n}\n`;
    const r = await scanBytes('session-deep.json', Buffer.from(session));
    expect(r.ends).toBe(1);
    expect(r.verdicts.map((v) => v.reply.text)).toEqual(['ok', 'next']);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['INVALID_RECORD', 5]]);
    const traj = `{\n  "trajectory": [],\n  "history": [\n    ${deep},\n    {"role": "assistant", "content": "x", "action": "ls", "agent": "main"}\n  ]\n}\n`;
    const t = await scanBytes('deep.traj', Buffer.from(traj));
    expect(t.verdicts.map((v) => v.reply.toolCalls[0]?.arguments?.['command'])).toEqual(['ls']);
    expect(t.errors.map((e) => e.code)).toEqual(['INVALID_RECORD']);
  });

  it('an Aider history of one 20 MB reply line is read up to the cap with one problem', async () => {
    const text = `# aider chat started at x\n\n#### go  \n\n${'x'.repeat(20 * 1024 * 1024)}\n\n> Tokens: 1 sent  \n`;
    const r = await scanBytes('big.aider.chat.history.md', Buffer.from(text), [], { maxDocumentBytes: 1024 * 1024 });
    expect(r.verdicts).toHaveLength(1);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['DOCUMENT_TOO_LARGE', 5]]);
  });

  it('an element of a split session over the document cap is DOCUMENT_TOO_LARGE at its line; the others are read', async () => {
    const big = 'y'.repeat(200_000);
    const session = `{\n  "sessionId": "s",\n  "projectHash": "h",\n  "messages": [\n    {"id": "a", "timestamp": "t", "type": "gemini", "content": "${big}"},\n    {"id": "b", "timestamp": "t", "type": "gemini", "content": "small"}\n  ]\n}\n`;
    const r = await scanBytes('session-big.json', Buffer.from(session), [], { maxDocumentBytes: 100_000 });
    expect(r.verdicts.map((v) => v.reply.text)).toEqual(['small']);
    expect(r.errors.map((e) => [e.code, e.line])).toEqual([['DOCUMENT_TOO_LARGE', 5]]);
  });
});
