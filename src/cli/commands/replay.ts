/**
 * `guard replay FILE`: re-emits a captured SSE stream (OpenAI Chat, Anthropic Messages, OpenAI
 * Responses; raw `.sse` or the `*.chunks.jsonl` form) on stdout as a client behind guard would
 * receive it, and writes guard's decisions as NDJSON to `--events FILE` (default stderr).
 * Exit codes: 0 replayed, 1 the stream was cut (enforce), 2 unreadable or malformed input.
 */

import { redactSecrets } from '../../base/redact.js';
import { utf8Chunks } from '../../capture/lines.js';
import { once } from 'node:events';
import { openInputFile, openOutputFile } from '../files.js';
import { resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import { loadConfig } from '../../config/load.js';
import { terminalSafeJson } from '../../report/printable.js';
import { FrameLimitError, formatFrame, readJsonlFrames, readSseFrames, type Wire } from '../../replay/frames.js';
import { ReplaySession } from '../../replay/engine.js';
import type { ReplayItem } from '../../replay/types.js';
import { resolveEngines, type EngineFlags } from '../engines.js';
import { EXIT } from '../errors.js';
import { UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import type { CommandState } from '../state.js';
import { wellFormedJson } from '../../base/json.js';
import { CONFIG_OPTION_HELP, MODE_OPTION_HELP } from '../flags.js';

interface ReplayFlags extends EngineFlags {
  config?: string;
  events?: string;
}

export function registerReplay(program: Command, io: CliIO, state: CommandState): void {
  program
    .command('replay')
    .description('re-emit a captured SSE stream as a client behind guard would receive it (decisions as NDJSON on stderr or --events)')
    .argument('<file>', 'OpenAI Chat, Anthropic Messages or OpenAI Responses stream: raw .sse body or .chunks.jsonl payloads; - for stdin')
    .option('-c, --config <file>', CONFIG_OPTION_HELP)
    .option('--mode <mode>', MODE_OPTION_HELP)
    .option('--tools <names>', 'comma-separated tool names the request advertised (a response stream does not carry them)')
    .option('--prose-ceiling <ratio>', 'largest prose ratio (0..1) at which a leak is still recovered')
    .option('--events <file>', 'write decisions as NDJSON to this file instead of stderr')
    .action(async (file: string, flags: ReplayFlags) => {
      state.exitCode = await replayCommand(file, flags, io);
    });
}

/** What {@link decoded} saw of the input: characters, and whether any was not whitespace. */
interface InputSeen {
  chars: number;
  content: boolean;
}

/**
 * The input decoded as text, chunk by chunk: UTF-16 with or without a byte order mark (what
 * Windows PowerShell's `>` writes) is decoded as `guard scan` decodes it ({@link utf8Chunks}),
 * any other input as UTF-8 (invalid bytes become U+FFFD). A UTF-16 stream is re-emitted as UTF-8,
 * the encoding of an event stream (WHATWG HTML §9.2: always UTF-8). `seen` is updated as it goes.
 */
async function* decoded(stream: Readable, seen: InputSeen): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
  const note = (text: string) => {
    seen.chars += text.length;
    if (!seen.content && /[^\s\uFEFF]/.test(text)) seen.content = true;
  };
  for await (const chunk of utf8Chunks(stream)) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    note(text);
    if (text !== '') yield text;
  }
  const rest = decoder.decode();
  note(rest);
  if (rest !== '') yield rest;
}

/**
 * Frames read before any event names the stream's API are held, at most this many, and written
 * once one does; an input where none does writes nothing on stdout (a text file, a JSON document
 * that is no stream event), so its error is not preceded by an echo of it.
 */
const MAX_FRAMES_BEFORE_API = 1024;

/**
 * The problem of an input in which no event named a stream API, with scan's codes and wording
 * (src/capture/read.ts): EMPTY_FILE for an input with no characters or only blank ones, else
 * UNKNOWN_FORMAT.
 */
function noStreamProblem(seen: InputSeen): { code: 'EMPTY_FILE' | 'UNKNOWN_FORMAT'; message: string } {
  if (!seen.content) return { code: 'EMPTY_FILE', message: seen.chars === 0 ? 'the input is empty' : 'the input holds only blank lines' };
  return { code: 'UNKNOWN_FORMAT', message: 'no OpenAI Chat, Anthropic Messages or OpenAI Responses stream event in the input; nothing was judged (use guard scan for other capture formats)' };
}

/** Says whether the input is JSONL (by extension, else by its first character) and gives the text back whole. */
async function sniffWire(file: string, chunks: AsyncGenerator<string>): Promise<{ wire: Wire; text: AsyncIterable<string> }> {
  const first = await chunks.next();
  const head = first.done ? '' : first.value;
  const byName = /\.(jsonl|ndjson)$/i.test(file);
  const wire: Wire = byName || head.replace(/^\uFEFF/, '').trimStart().startsWith('{') ? 'jsonl' : 'sse';
  const text = (async function* () {
    if (head !== '') yield head;
    yield* chunks;
  })();
  return { wire, text };
}


async function write(sink: Writable, text: string): Promise<void> {
  sink.write(text);
  if (sink.writableNeedDrain) await once(sink, 'drain');
}

async function replayCommand(file: string, flags: ReplayFlags, io: CliIO): Promise<number> {
  const config = await loadConfig(flags.config, io.cwd);
  const judge = await resolveEngines(config, flags);
  if (flags.events !== undefined && file !== '-' && resolve(io.cwd, flags.events) === resolve(io.cwd, file)) {
    throw new UsageError(`--events ${flags.events} is the input; refusing to overwrite it`);
  }
  const input: Readable = file === '-' ? io.stdin : await openInputFile(file, io.cwd);
  const events = flags.events !== undefined ? await openOutputFile(flags.events, io.cwd, '--events') : null;
  const eventSink: Writable = events?.stream ?? io.stderr;
  let errors = 0;
  let cut = false;
  try {
    const seen: InputSeen = { chars: 0, content: false };
    const { wire, text } = await sniffWire(file, decoded(input, seen));
    const frames = wire === 'jsonl' ? readJsonlFrames(text) : readSseFrames(text);
    const session = new ReplaySession({ recovery: judge.recovery, ruleSet: judge.ruleSet, mode: judge.mode });
    const early: string[] = [];
    const items = async function* (): AsyncGenerator<ReplayItem> {
      for await (const frame of frames) yield* session.push(frame);
      yield* session.end();
    };
    for await (const item of items()) {
      if (item.kind === 'frame') {
        const out = formatFrame(item.frame, wire);
        if (session.streamApi === null) {
          if (early.length < MAX_FRAMES_BEFORE_API) early.push(out);
          continue;
        }
        for (const e of early.splice(0)) await write(io.stdout, e);
        await write(io.stdout, out);
        continue;
      }
      const d = item.decision;
      if (d.type === 'problem' && d.severity === 'error') errors++;
      if (d.type === 'cut') cut = true;
      if (d.type === 'summary' && d.api === null) {
        // nothing in the input was an OpenAI Chat, Anthropic or Responses stream event: passing it
        // through unjudged must not look like a clean replay
        errors++;
        const problem = { type: 'problem', line: null, severity: 'error', ...noStreamProblem(seen) };
        await write(eventSink, `${terminalSafeJson(wellFormedJson({ file, ...problem }))}\n`);
      }
      // with no stream API nothing reached stdout (the frames were held, then dropped)
      const record = d.type === 'summary' && d.api === null ? { file, ...d, frames_out: 0 } : { file, ...d };
      await write(eventSink, `${terminalSafeJson(wellFormedJson(maskedDecision(record)))}\n`);
    }
  } catch (e) {
    if (e instanceof FrameLimitError) {
      // an endless or binary input: what came before was replayed; the stop is a problem of the file
      const problem = { type: 'problem', line: e.line, severity: 'error', code: e.code, message: e.message };
      await write(eventSink, `${terminalSafeJson(wellFormedJson({ file, ...problem }))}\n`);
      await events?.close();
      return EXIT.FAILURE;
    }
    await events?.close().catch(() => undefined);
    events?.check(); // a failed write to the events file surfaces as such, not as an internal error
    throw e;
  }
  // an events file that could not be written fails the replay (exit 2)
  await events?.close();
  if (errors > 0) return EXIT.FAILURE;
  return cut ? EXIT.FINDINGS : EXIT.OK;
}

/**
 * A decision with secrets masked in every string it holds (base/redact.ts): problem messages,
 * details and excerpts come from the capture (an API error event can quote a bearer token). The
 * replayed stream on stdout is the client's and stays exact; replay has no `--no-redact`.
 */
function maskedDecision<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskedDecision(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskedDecision(v);
    return out as T;
  }
  return value;
}
