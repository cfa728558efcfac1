/**
 * Deterministic capture set for `npm run bench`: mixed formats (OpenAI Chat request/response
 * pairs, Anthropic Messages bodies, OpenAI Responses bodies, Claude Code sessions, guard reply
 * records, OpenAI Chat and Anthropic SSE streams), about 5% leaked replies across families (texts
 * from fixtures/corpus/public.jsonl and the `recover` cases of the family units, src/recovery/families/*.cases.yaml),
 * tool calls carrying commands (the rules' vectors, src/inspection/rules/*.vectors.yaml, matches and near misses) and
 * long benign replies (prose, code fences, markdown).
 *
 * The same seed and size always give the same bytes. Shapes follow the capture readers
 * (src/capture/bodies, src/capture/transcripts, src/capture/streams) and the research note
 * capture-formats.md §1-§5.
 */

import { createWriteStream, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** mulberry32: a small seeded PRNG (32-bit state), enough for reproducible test data. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Parses `200MB`, `1GB`, `512KiB`, `1e6` into bytes. */
export function parseSize(s) {
  const m = /^\s*([\d.e+]+)\s*(b|kb|kib|mb|mib|gb|gib)?\s*$/i.exec(String(s));
  if (!m) throw new Error(`bad size '${s}' (examples: 200MB, 1GB)`);
  const unit = (m[2] ?? 'b').toLowerCase();
  const mult = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3 }[unit];
  return Math.round(Number(m[1]) * mult);
}

/** The leak texts and command cases the set draws from, read from the project's fixtures. */
export function loadCases() {
  const leaks = [];
  for (const line of readFileSync(join(ROOT, 'fixtures/corpus/public.jsonl'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    if (c.label === 'leak') leaks.push({ text: c.text, tools: c.tools ?? [] });
  }
  // the `recover` cases of the family units (src/recovery/families/*.cases.yaml)
  const families = join(ROOT, 'src/recovery/families');
  for (const f of readdirSync(families).filter((n) => n.endsWith('.cases.yaml')).sort()) {
    for (const c of parseYaml(readFileSync(join(families, f), 'utf8')).cases ?? []) if (c.expected === 'recover') leaks.push({ text: c.text, tools: c.tools ?? [] });
  }
  const commands = [];
  const dir = join(ROOT, 'src/inspection/rules');
  const doc = Object.assign({}, ...readdirSync(dir).filter((f) => f.endsWith('.vectors.yaml')).sort().map((f) => parseYaml(readFileSync(join(dir, f), 'utf8'))));
  // an entry is a command string, `{command, raw}` (a command), or `{call}` (a whole tool call of
  // another shape, test/inspection/vectors.ts): the bench takes the shell commands only
  const commandOf = (e) => (typeof e === 'string' ? e : typeof e?.command === 'string' ? e.command : null);
  for (const [rule, v] of Object.entries(doc)) {
    for (const e of v.match ?? []) if (commandOf(e) !== null) commands.push({ rule, command: commandOf(e), positive: true });
    for (const e of v.not_match ?? []) if (commandOf(e) !== null) commands.push({ rule, command: commandOf(e), positive: false });
  }
  return { leaks, commands };
}

const WORDS = (
  'the a of to and in is that for it as with was on be by this are or from at an which but not have ' +
  'function value request server client token stream reply model build test deploy cache index query ' +
  'result error handler config module package version release branch commit merge review patch file ' +
  'directory path user session process thread memory buffer network socket header status response'
).split(' ');

/** Benign prose of about `bytes` characters: sentences, now and then a code fence or a list. */
function prose(r, bytes) {
  const parts = [];
  let n = 0;
  while (n < bytes) {
    const k = 6 + Math.floor(r() * 14);
    let s = '';
    for (let i = 0; i < k; i++) s += (i ? ' ' : '') + WORDS[Math.floor(r() * WORDS.length)];
    s = s[0].toUpperCase() + s.slice(1) + '.';
    const roll = r();
    if (roll < 0.04) s += '\n\n```js\nconst x = await fetch(url);\nconsole.log(x.status);\n```\n';
    else if (roll < 0.08) s += '\n- first item\n- second item\n';
    else if (roll < 0.2) s += '\n\n';
    parts.push(s);
    n += s.length + 1;
  }
  return parts.join(' ');
}

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const toolDefsChat = (names) =>
  names.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: { command: { type: 'string' } } } } }));
const toolDefsAnthropic = (names) => names.map((name) => ({ name, input_schema: { type: 'object', properties: { command: { type: 'string' } } } }));

/**
 * One reply's content: a leak (about 5%), a shell tool call (about 25%), or benign prose, long
 * (2-16 KB) about a third of the time.
 */
function replyContent(r, cases) {
  const roll = r();
  if (roll < 0.05) {
    const leak = pick(r, cases.leaks);
    return { text: leak.text, tools: leak.tools.length ? leak.tools : ['bash'], call: null };
  }
  const text = prose(r, r() < 0.33 ? 2000 + Math.floor(r() * 14000) : 80 + Math.floor(r() * 600));
  if (roll < 0.3) {
    const c = pick(r, cases.commands);
    return { text: text.slice(0, 200), tools: ['bash', 'read_file'], call: { name: 'bash', args: { command: c.command } } };
  }
  return { text, tools: ['bash', 'read_file'], call: null };
}

/** Writers: each returns the lines (without terminators) of one or more replies. */
const FORMATS = {
  /** OpenAI Chat request/response pair (capture-formats.md §5.1 with a §1.2 body). */
  'openai-chat-pair'(r, i, cases) {
    const c = replyContent(r, cases);
    const message = { role: 'assistant', content: c.text, refusal: null };
    if (c.call) message.tool_calls = [{ id: `call_${i}`, type: 'function', function: { name: c.call.name, arguments: JSON.stringify(c.call.args) } }];
    const body = {
      id: `chatcmpl-${i}`,
      object: 'chat.completion',
      created: 1767225600 + i,
      model: 'gpt-4.1',
      choices: [{ index: 0, finish_reason: c.call ? 'tool_calls' : 'stop', message }],
      usage: { prompt_tokens: 50, completion_tokens: 120, total_tokens: 170 },
    };
    const request = { method: 'POST', url: 'https://api.openai.com/v1/chat/completions', body: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'help me' }], tools: toolDefsChat(c.tools) } };
    return [JSON.stringify({ request, response: { status_code: 200, body } })];
  },
  /** Anthropic Messages response body (§2.2). */
  anthropic(r, i, cases) {
    const c = replyContent(r, cases);
    const content = [{ type: 'text', text: c.text }];
    if (c.call) content.push({ type: 'tool_use', id: `toolu_${i}`, name: c.call.name, input: c.call.args });
    return [JSON.stringify({ id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: c.call ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 50, output_tokens: 120 } })];
  },
  /** OpenAI Responses response object (§3.2). */
  responses(r, i, cases) {
    const c = replyContent(r, cases);
    const output = [{ type: 'message', id: `msg_${i}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: c.text, annotations: [] }] }];
    if (c.call) output.push({ type: 'function_call', id: `fc_${i}`, call_id: `call_${i}`, name: c.call.name, arguments: JSON.stringify(c.call.args), status: 'completed' });
    const tools = c.tools.map((name) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } }));
    return [JSON.stringify({ id: `resp_${i}`, object: 'response', created_at: 1767225600 + i, status: 'completed', model: 'gpt-5', tools, output })];
  },
  /** Claude Code session lines (§4.1): a user line, then the assistant's message. */
  'claude-code'(r, i, cases) {
    const c = replyContent(r, cases);
    const base = { isSidechain: false, userType: 'external', cwd: '/repo', sessionId: 's1', version: '2.0.1' };
    const content = [{ type: 'text', text: c.text }];
    if (c.call) content.push({ type: 'tool_use', id: `toolu_${i}`, name: 'Bash', input: c.call.args });
    return [
      JSON.stringify({ parentUuid: null, ...base, type: 'user', uuid: `u${i}`, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: 'go on' } }),
      JSON.stringify({
        parentUuid: `u${i}`,
        ...base,
        type: 'assistant',
        uuid: `a${i}`,
        timestamp: '2026-01-01T00:00:01.000Z',
        requestId: `req_${i}`,
        message: { id: `msg_${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: c.call ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 10, output_tokens: 20 } },
      }),
    ];
  },
  /** guard reply records (README "Reply records"). */
  'guard-reply'(r, i, cases) {
    const c = replyContent(r, cases);
    const rec = { id: `g${i}`, tools: c.tools, text: c.text };
    if (c.call) rec.tool_calls = [{ id: `call_${i}`, name: c.call.name, arguments: c.call.args }];
    return [JSON.stringify(rec)];
  },
  /** OpenAI Chat SSE stream (§1.3): the text in deltas of ~40 characters, then [DONE]. */
  'openai-chat-sse'(r, i, cases) {
    const c = replyContent(r, cases);
    const head = { id: `chatcmpl-s${i}`, object: 'chat.completion.chunk', created: 1767225600, model: 'gpt-4.1' };
    const out = [];
    const ev = (delta, finish = null) => {
      out.push(`data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] })}`, '');
    };
    ev({ role: 'assistant', content: '' });
    for (let k = 0; k < c.text.length; k += 40) ev({ content: c.text.slice(k, k + 40) });
    if (c.call) ev({ tool_calls: [{ index: 0, id: `call_${i}`, type: 'function', function: { name: c.call.name, arguments: JSON.stringify(c.call.args) } }] });
    ev({}, c.call ? 'tool_calls' : 'stop');
    out.push('data: [DONE]', '');
    return out;
  },
  /** Anthropic SSE stream (§2.3): message_start, one text block in deltas, an optional tool_use block. */
  'anthropic-sse'(r, i, cases) {
    const c = replyContent(r, cases);
    const out = [];
    const ev = (type, data) => out.push(`event: ${type}`, `data: ${JSON.stringify({ type, ...data })}`, '');
    ev('message_start', { message: { id: `msg_s${i}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } } });
    ev('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    for (let k = 0; k < c.text.length; k += 40) ev('content_block_delta', { index: 0, delta: { type: 'text_delta', text: c.text.slice(k, k + 40) } });
    ev('content_block_stop', { index: 0 });
    if (c.call) {
      ev('content_block_start', { index: 1, content_block: { type: 'tool_use', id: `toolu_s${i}`, name: c.call.name, input: {} } });
      ev('content_block_delta', { index: 1, delta: { type: 'input_json_delta', partial_json: JSON.stringify(c.call.args) } });
      ev('content_block_stop', { index: 1 });
    }
    ev('message_delta', { delta: { stop_reason: c.call ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 120 } });
    ev('message_stop', {});
    return out;
  },
};

const EXTENSION = { 'openai-chat-sse': 'sse', 'anthropic-sse': 'sse' };

/** Target share of the bytes per format (sums to 1). */
const MIX = [
  ['openai-chat-pair', 0.2],
  ['anthropic', 0.15],
  ['responses', 0.15],
  ['claude-code', 0.15],
  ['guard-reply', 0.15],
  ['openai-chat-sse', 0.1],
  ['anthropic-sse', 0.1],
];

/** Bytes per generated file: the set is split into files of about this size, so `--jobs` has files to spread. */
const FILE_BYTES = 12_500_000;

/**
 * Writes the capture set of `totalBytes` into `dir` (created; a previous set with the same
 * manifest is reused). Returns the manifest: files, bytes, lines and replies written.
 *
 * @param dir output directory.
 * @param totalBytes approximate total size in bytes (each file stops at its share).
 * @param seed PRNG seed (default 1).
 */
export async function generate(dir, totalBytes, seed = 1) {
  // beside the directory, not in it: guard would read a .json file in it as a capture
  const manifestPath = `${dir}.manifest.json`;
  if (existsSync(manifestPath)) {
    const m = JSON.parse(readFileSync(manifestPath, 'utf8'));
    if (m.totalBytes === totalBytes && m.seed === seed && m.version === 1) return m;
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const cases = loadCases();
  const r = rng(seed);
  const files = [];
  let serial = 0;
  for (const [format, share] of MIX) {
    const formatBytes = Math.round(totalBytes * share);
    const count = Math.max(1, Math.round(formatBytes / FILE_BYTES));
    for (let f = 0; f < count; f++) {
      const name = `${format}-${String(f).padStart(3, '0')}.${EXTENSION[format] ?? 'jsonl'}`;
      const path = join(dir, name);
      const out = createWriteStream(path);
      const target = formatBytes / count;
      let bytes = 0;
      let lines = 0;
      let replies = 0;
      while (bytes < target) {
        const chunk = `${FORMATS[format](r, serial++, cases).join('\n')}\n`;
        replies++;
        lines += chunk.split('\n').length - 1;
        bytes += Buffer.byteLength(chunk);
        if (!out.write(chunk)) await once(out, 'drain');
      }
      await new Promise((ok) => out.end(ok));
      files.push({ name, format, bytes, lines, replies });
    }
  }
  const manifest = {
    version: 1,
    seed,
    totalBytes,
    bytes: files.reduce((s, f) => s + f.bytes, 0),
    replies: files.reduce((s, f) => s + f.replies, 0),
    files,
  };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  return manifest;
}
