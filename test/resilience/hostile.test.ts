/**
 * Hostile inputs, each generated on the fly: a 100 MB line, JSON nested 100 000 levels deep, a
 * 10 MB argument string, a million tiny replies, invalid UTF-8, NUL bytes, a symbolic-link loop,
 * a file that disappears mid-scan, a binary file. guard reports what it cannot read, with file and
 * line, scans the rest, and its own code never overflows the stack (no INTERNAL_ERROR).
 */

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanInputsParallel } from '../../src/scan/parallel.js';
import { scanInputs, type ScanEvent } from '../../src/scan/scan.js';
import { loadConfig } from '../../src/config/load.js';
import { resolveSettings } from '../../src/cli/engines.js';
import { ndjson, ROOT, runGuard } from '../cli/helpers.js';
import { defaultEngines, scanBytes } from './helpers.js';

// The memory bounds below are on live memory: the heap after a full collection. heapUsed without
// one counts garbage the collector has not reached yet, which grows when the machine is loaded
// (a full suite on 2 cores measured 151.6 MiB against the 150 MiB bound).
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
/** The heap in use after a full garbage collection. */
const liveHeap = (): number => {
  collect();
  return process.memoryUsage().heapUsed;
};

const D = 100_000;
const deepObject = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const line = (v: unknown): string => `${JSON.stringify(v)}\n`;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'guard-hostile-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const emptyStdin = () => {
  const p = new PassThrough();
  p.end();
  return p;
};

describe('hostile inputs', () => {
  it('reads a 100 MB single line as one reply', async () => {
    const text = 'lorem ipsum dolor sit amet, '.repeat(3_600_000); // 100.8 MB
    const r = await scanBytes('big.jsonl', Buffer.from(line({ id: 'big', tools: ['bash'], text })));
    expect(r.errors).toEqual([]);
    expect(r.verdicts).toHaveLength(1);
    expect(r.verdicts[0]!.reply.text.length).toBe(text.length);
    expect(r.verdicts[0]!.recovery.reason).toBe('no_tags');
  }, 60_000);

  it('reports a line over --max-line-bytes as LINE_TOO_LONG at its line and reads the next', async () => {
    const bytes = Buffer.from(line({ text: 'x'.repeat(2_000_000) }) + line({ id: 'after', text: 'ok' }));
    const r = await scanBytes('long.jsonl', bytes, [], { maxLineBytes: 1_000_000 });
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([[1, 'LINE_TOO_LONG']]);
    expect(r.verdicts.map((v) => [v.reply.source.line, v.reply.id])).toEqual([[2, 'after']]);
  });

  it('survives JSON nested 100 000 levels deep: a bare array, tool-call arguments in three formats, leaked markup, a JSON document', async () => {
    const deep = deepObject(D);
    const cases: Array<[string, string, string[]]> = [
      ['array.jsonl', `${'['.repeat(D)}${']'.repeat(D)}\n`, ['error null UNKNOWN_FORMAT']],
      ['reply.jsonl', `{"id":"r","tools":["bash"],"text":"","tool_calls":[{"id":"c1","name":"bash","arguments":${deep}}]}\n`, ['reply 1 structured', 'error 1 INVALID_RECORD']],
      [
        'chat.jsonl',
        line({ id: 'x', object: 'chat.completion', choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'bash', arguments: deep } }] } }] }),
        ['reply 1 structured', 'error 1 INVALID_RECORD'],
      ],
      ['anthropic.jsonl', `{"id":"m","type":"message","role":"assistant","model":"c","content":[{"type":"tool_use","id":"t","name":"bash","input":${deep}}],"stop_reason":"tool_use"}\n`, ['reply 1 structured', 'error 1 INVALID_RECORD']],
      ['markup.jsonl', line({ id: 'm', tools: ['bash'], text: `<tool_call>\n{"name": "bash", "arguments": ${deep}}\n</tool_call>` }), ['reply 1 bad_arguments']],
      ['document.json', `[\n${'['.repeat(D)}${']'.repeat(D)}\n]\n`, ['error null UNKNOWN_FORMAT']],
    ];
    for (const [name, text, expected] of cases) {
      const r = await scanBytes(name, Buffer.from(text));
      const got = [...r.verdicts.map((v) => `reply ${v.reply.source.line} ${v.recovery.reason}`), ...r.errors.map((e) => `error ${e.line} ${e.code}`)];
      expect(got, name).toEqual(expected);
    }
  }, 60_000);

  it('writes the report of deeply nested input without overflowing the stack (NDJSON, SARIF)', async () => {
    const file = join(dir, 'deep.jsonl');
    writeFileSync(file, `{"id":"r","tools":["bash"],"text":"","tool_calls":[{"id":"c1","name":"bash","arguments":${deepObject(D)}}]}\n`);
    for (const format of ['ndjson', 'sarif']) {
      const r = await runGuard(['scan', file, '--format', format, '--jobs', '1']);
      expect(r.code, r.stderr).toBe(2); // the INVALID_RECORD is an input problem
      expect(r.stdout).not.toContain('INTERNAL_ERROR');
    }
  }, 60_000);

  it('inspects shell nested 100 000 levels deep without overflowing the stack', async () => {
    const command = `${'('.repeat(D)}ls${')'.repeat(D)}`;
    const r = await scanBytes('subshells.jsonl', Buffer.from(line({ id: 's', tools: ['bash'], text: '', tool_calls: [{ id: 'c', name: 'bash', arguments: { command } }] })));
    expect(r.errors).toEqual([]);
    expect(r.verdicts.map((v) => v.inspection.hits.map((h) => h.rule))).toEqual([['unparsed-command']]);
  }, 60_000);

  it('inspects a 10 MB argument string and reports the reply', async () => {
    const command = `echo ${'a'.repeat(10_000_000)}`;
    const r = await scanBytes('bigarg.jsonl', Buffer.from(line({ id: 'b', tools: ['bash'], text: '', tool_calls: [{ id: 'c', name: 'bash', arguments: { command } }] })));
    expect(r.errors).toEqual([]);
    expect(r.verdicts).toHaveLength(1);
    expect(r.verdicts[0]!.reply.toolCalls[0]!.argumentsRaw.length).toBe(command.length + 14);
  }, 60_000);

  it('scans 1 000 000 tiny replies, each at its line, in bounded memory', async () => {
    const file = join(dir, 'million.jsonl');
    writeFileSync(file, '{"text":"hi"}\n'.repeat(1_000_000));
    const judge = await defaultEngines();
    const before = liveHeap();
    let replies = 0;
    let lastLine = 0;
    let peak = 0;
    for await (const ev of scanInputs([file], { judge, stdin: emptyStdin(), cwd: dir })) {
      if (ev.kind === 'reply') {
        replies++;
        if (ev.verdict.reply.source.line !== lastLine + 1) throw new Error(`line ${ev.verdict.reply.source.line} after ${lastLine}`);
        lastLine = ev.verdict.reply.source.line;
        if (replies % 100_000 === 0) peak = Math.max(peak, liveHeap());
      } else if (ev.kind === 'error') throw new Error(ev.error.message);
    }
    expect(replies).toBe(1_000_000);
    // nothing per reply is kept: the heap does not grow with the number of replies
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 120_000);

  it('reads a 60 MB HAR entry by entry (never the whole document) in bounded memory', async () => {
    const file = join(dir, 'big.har');
    const sse = (i: number) =>
      [
        { id: `c${i}`, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: 'x'.repeat(4000) }, finish_reason: null }] },
        { id: `c${i}`, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: `call_${i}`, type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] }, finish_reason: 'tool_calls' }] },
      ]
        .map((c) => `data: ${JSON.stringify(c)}\n\n`)
        .join('') + 'data: [DONE]\n\n';
    const n = 12_000;
    const entry = (i: number) => JSON.stringify({ request: { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', postData: { mimeType: 'application/json', text: '{"model":"m","messages":[],"tools":[{"type":"function","function":{"name":"bash"}}]}' } }, response: { status: 200, content: { mimeType: 'text/event-stream', text: sse(i) } } }, null, 1);
    const parts = ['{\n "log": {\n  "version": "1.2",\n  "entries": [\n'];
    for (let i = 0; i < n; i++) parts.push(entry(i), i === n - 1 ? '\n' : ',\n');
    parts.push('  ]\n }\n}\n');
    writeFileSync(file, parts.join(''));
    const judge = await defaultEngines();
    const before = liveHeap();
    let replies = 0;
    let peak = 0;
    // a 1 MiB cap on one JSON value: the 60 MB document is never held, only one entry at a time
    for await (const ev of scanInputs([file], { judge, stdin: emptyStdin(), cwd: dir, read: { maxDocumentBytes: 1 << 20 } })) {
      if (ev.kind === 'reply') {
        replies++;
        expect(ev.verdict.reply.toolCalls.map((c) => c.id)).toEqual([`call_${replies - 1}`]);
        if (replies % 2000 === 0) peak = Math.max(peak, liveHeap());
      } else if (ev.kind === 'error') throw new Error(ev.error.message);
    }
    expect(replies).toBe(n);
    expect(peak - before).toBeLessThan(150 * 1024 * 1024);
  }, 120_000);

  it('reads a 500 000-line Ollama NDJSON stream of 100 000 replies, and a 200 000-frame binary event stream, in bounded memory', async () => {
    const ollama = join(dir, 'ollama.ndjson');
    const chunk = (i: number, done: boolean) => `{"model":"llama3.1:8b","created_at":"2025-04-17T13:21:41Z","message":{"role":"assistant","content":"w${i} "},"done":${done}}\n`;
    const lines: string[] = [];
    for (let i = 0; i < 500_000; i++) lines.push(chunk(i, i % 5 === 4));
    writeFileSync(ollama, lines.join(''));
    const { EventStreamCodec } = await import('@smithy/eventstream-codec');
    const { fromUtf8, toUtf8 } = await import('@smithy/util-utf8');
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const frame = (type: string, payload: unknown) =>
      codec.encode({ headers: { ':event-type': { type: 'string', value: type }, ':content-type': { type: 'string', value: 'application/json' }, ':message-type': { type: 'string', value: 'event' } }, body: fromUtf8(JSON.stringify(payload)) });
    const frames: Uint8Array[] = [];
    for (let i = 0; i < 50_000; i++) {
      frames.push(frame('messageStart', { role: 'assistant' }), frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: `t${i}` } }), frame('contentBlockStop', { contentBlockIndex: 0 }), frame('messageStop', { stopReason: 'end_turn' }));
    }
    const stream = join(dir, 'many.eventstream');
    writeFileSync(stream, Buffer.concat(frames));
    const judge = await defaultEngines();
    for (const [file, expected] of [[ollama, 100_000], [stream, 50_000]] as const) {
      const before = liveHeap();
      let replies = 0;
      let peak = 0;
      for await (const ev of scanInputs([file], { judge, stdin: emptyStdin(), cwd: dir })) {
        if (ev.kind === 'reply') {
          if (++replies % 10_000 === 0) peak = Math.max(peak, liveHeap());
        } else if (ev.kind === 'error') throw new Error(ev.error.message);
      }
      expect(replies).toBe(expected);
      expect(peak - before).toBeLessThan(150 * 1024 * 1024);
    }
  }, 120_000);

  it('skips invalid UTF-8 lines with INVALID_UTF8 at their line and reads the rest', async () => {
    const bytes = Buffer.concat([Buffer.from(line({ id: 'a', text: 'one' })), Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d, 0x0a]), Buffer.from(line({ id: 'c', text: 'three' }))]);
    const r = await scanBytes('utf8.jsonl', bytes);
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([[2, 'INVALID_UTF8']]);
    expect(r.verdicts.map((v) => v.reply.id)).toEqual(['a', 'c']);
  });

  it('reports NUL bytes: in a first line followed by records, or later, the line is INVALID_JSON and the rest is read; with no record after them, BINARY_FILE', async () => {
    // a damaged first line costs only itself (it used to reject the whole file as binary)
    const early = await scanBytes('nul.jsonl', Buffer.concat([Buffer.from('{"text":"a\u0000b"}\n'), Buffer.from(line({ id: 'y', text: 'x' }))]));
    expect(early.errors.map((e) => [e.line, e.code])).toEqual([[1, 'INVALID_JSON']]);
    expect(early.verdicts.map((v) => v.reply.id)).toEqual(['y']);
    const binary = await scanBytes('nul.bin', Buffer.from('{"text":"a\u0000b"}\nno record here\n'));
    expect(binary.errors.map((e) => [e.line, e.code])).toEqual([[null, 'BINARY_FILE']]);
    expect(binary.errors[0]!.message).toContain('first on line 1');
    const pad = line({ id: 'pad', text: 'p'.repeat(9000) });
    const late = await scanBytes('nul-late.jsonl', Buffer.concat([Buffer.from(pad), Buffer.from('{"text":"a\u0000b"}\n'), Buffer.from(line({ id: 'z', text: 'x' }))]));
    expect(late.errors.map((e) => [e.line, e.code])).toEqual([[2, 'INVALID_JSON']]);
    expect(late.verdicts.map((v) => v.reply.id)).toEqual(['pad', 'z']);
  });

  it('reads a capture that is actually binary (a cut gzip stream, PNG, random bytes) as one whole-file problem', async () => {
    let seed = 7;
    const random = Buffer.alloc(64 * 1024, 0).map(() => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return 0x80 | ((seed >>> 16) & 0x7f); // no NUL, no ASCII: invalid UTF-8 text
    });
    const inputs: Array<[string, Buffer, string]> = [
      // gzip is read through zlib: a stream cut after its header is UNREADABLE (unexpected end of file)
      ['log.jsonl.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x4c]), 'UNREADABLE'],
      ['shot.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]), 'BINARY_FILE'],
      ['random.jsonl', Buffer.from(random), 'INVALID_UTF8'],
      // {"text":"hi"}\n as zstd, xz and bzip2 wrote it (issue 14 red-team pass: each was BINARY_FILE,
      // which did not say the file only needs decompressing)
      ['log.jsonl.zst', Buffer.from('28b52ffd04587100007b2274657874223a226869227d0ae4e01097', 'hex'), 'COMPRESSED_FILE'],
      ['log.jsonl.xz', Buffer.from('fd377a585a000004e6d6b4460200210116000000742fe5a301000d7b2274657874223a226869227d0a000000fb8c97b4377a83790001260e081be004', 'hex'), 'COMPRESSED_FILE'],
      ['log.jsonl.bz2', Buffer.from('425a683931415926535915f2752900000659800010100000100260044a2000220036a100303ac5b708909f17724538509015f27529', 'hex'), 'COMPRESSED_FILE'],
    ];
    for (const [name, bytes, code] of inputs) {
      const r = await scanBytes(name, bytes);
      expect(r.verdicts, name).toEqual([]);
      expect(r.ends).toBe(1);
      expect(r.errors.map((e) => e.code), name).toContain(code);
      for (const e of r.errors) expect(e.file).toBe(name);
      if (code === 'COMPRESSED_FILE') expect(r.errors.map((e) => [e.line, e.code, e.severity]), name).toEqual([[null, 'COMPRESSED_FILE', 'error']]);
    }
    const tools = (await Promise.all(inputs.filter((i) => i[2] === 'COMPRESSED_FILE').map(([name, bytes]) => scanBytes(name, bytes)))).map((r) => r.errors[0]!.message.match(/\((\w+) (-d )?FILE\)/)?.[1]);
    expect(tools).toEqual(['zstd', 'xz', 'bunzip2']);
    // text that merely opens with "BZh9" is read as text
    expect((await scanBytes('bzh.jsonl', Buffer.from('BZh9 not a header\n{"id":"ok","text":"hi"}\n'))).verdicts.map((v) => v.reply.id)).toEqual(['ok']);
  });

  it('walks a directory holding a symbolic-link loop once and ends', async () => {
    const root = join(dir, 'loop');
    mkdirSync(join(root, 'sub'), { recursive: true });
    writeFileSync(join(root, 'sub', 'a.jsonl'), line({ id: 'a', text: 'one' }));
    symlinkSync('..', join(root, 'sub', 'up'));
    symlinkSync(join(root, 'sub'), join(root, 'again'));
    const r = await runGuard(['scan', root, '--format', 'ndjson', '--jobs', '1']);
    const records = ndjson(r.stdout);
    expect(records.filter((x) => x['id'] === 'a')).toHaveLength(1);
    expect(r.code).toBe(0);
  });

  it('reports a file that disappears mid-scan as UNREADABLE and scans the others, in one thread and in workers', async () => {
    const config = await loadConfig(undefined, ROOT);
    const judge = await defaultEngines();
    for (const jobs of [1, 2]) {
      const root = join(dir, `vanish-${jobs}`);
      mkdirSync(root);
      writeFileSync(join(root, 'a.jsonl'), line({ id: 'a', text: 'one' }).repeat(200));
      writeFileSync(join(root, 'b.jsonl'), line({ id: 'b', text: 'two' }));
      writeFileSync(join(root, 'c.jsonl'), line({ id: 'c', text: 'three' }));
      const options = { judge, stdin: emptyStdin(), cwd: root };
      const events = jobs === 1 ? scanInputs(['.'], options) : scanInputsParallel(['.'], options, { jobs: 2, setup: { settings: resolveSettings(config, {}) } });
      const seen: string[] = [];
      for await (const ev of events) {
        if (ev.kind === 'reply') {
          if (seen.length === 0) unlinkSync(join(root, 'b.jsonl')); // after the list was made, before b is opened
          seen.push(`reply ${ev.verdict.reply.id}`);
        } else if (ev.kind === 'error') seen.push(`error ${ev.error.file} ${ev.error.code}`);
      }
      const tail = seen.filter((s) => !s.startsWith('reply a'));
      if (jobs === 1) expect(tail).toEqual(['error b.jsonl UNREADABLE', 'reply c']);
      // in workers b may have been read before the unlink: either way c is scanned and nothing crashes
      else expect(tail.at(-1)).toBe('reply c');
      expect(seen.filter((s) => s === 'reply a')).toHaveLength(200);
    }
  });
});
