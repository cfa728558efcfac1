import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING } from '../../src/recovery/types.js';
import { runGuard } from '../cli/helpers.js';

/** 50 non-whitespace characters of Hermes markup around one call of `f`. */
const BLOCK = '<tool_call>{"name": "f", "arguments": {}}</tool_call>';
/** `n` non-whitespace characters of plain prose (ten-letter words). */
const prose = (n: number) => Array.from({ length: n / 10 }, () => 'abcdefghij').join(' ');
const rec = (id: string, label: string | undefined, text: string) => JSON.stringify({ id, tools: ['f'], text, ...(label ? { label } : {}) });

/** Ratios: l0 0.00, l1 25/75 = 0.33, q1 150/200 = 0.75, q2 200/250 = 0.80. */
const SMALL = [
  rec('q2', 'quotation', `${prose(200)} ${BLOCK}`),
  rec('l0', 'leak', BLOCK),
  rec('q1', 'quotation', `${prose(150)} ${BLOCK}`),
  rec('l1', 'leak', `${prose(20)} abcde ${BLOCK}`),
];

function corpus(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'guard-ceiling-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const small = () => corpus({ 'small.jsonl': SMALL.join('\n') + '\n' });

/** The shipped ceiling as the text output prints it (two decimals), as a regular expression. */
const SHIPPED = DEFAULT_PROSE_CEILING.toFixed(2).replace('.', '\\.');

describe('guard ceiling on the shipped corpus', () => {
  it(`separates every leak from every quotation at the shipped ceiling ${DEFAULT_PROSE_CEILING}`, async () => {
    const r = await runGuard(['ceiling', '--corpus', 'fixtures/corpus', '--format', 'json']);
    const out = JSON.parse(r.stdout);
    expect(out.wrong).toEqual([]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(out.ceiling).toBe(DEFAULT_PROSE_CEILING);
    expect(out.separated).toBe(true);
    expect(out.max_leak).toBeLessThanOrEqual(DEFAULT_PROSE_CEILING);
    expect(out.min_quotation).toBeGreaterThan(DEFAULT_PROSE_CEILING);
    expect(out.counts.leak).toBeGreaterThanOrEqual(8);
    expect(out.counts.quotation).toBeGreaterThanOrEqual(8);
    // labels from the side file of the OpenAI Chat capture are read
    const chat = out.rows.filter((row: { source: string }) => row.source.startsWith('fixtures/corpus/team-chat.jsonl:'));
    expect(chat.map((row: { id: string; label: string }) => [row.id, row.label])).toEqual([
      ['chatcmpl-team-leak-1', 'leak'],
      ['chatcmpl-team-quote-1', 'quotation'],
    ]);
  });

  it('prints the table, the summary and the strip plot in text, as the README gives it', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'fixtures/corpus']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^reply +label +family +ratio +reason +check$/m);
    expect(r.stdout).toMatch(new RegExp(`^---- ceiling ${SHIPPED} -+$`, 'm'));
    expect(r.stdout).toMatch(/^separated: yes \(\d+ leaks, \d+ quotations\)$/m);
    expect(r.stdout).toMatch(new RegExp(`^ +\\^ ceiling ${SHIPPED}$`, 'm'));
  });

  it('--suggest on the shipped corpus proposes a ceiling within 0.05 of the shipped one, which still separates', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'fixtures/corpus', '--suggest', '--format', 'json']);
    const out = JSON.parse(r.stdout);
    // 0.44 since announcing prefaces are left out of the ratio and the corpus holds two real
    // leaks with the most prose (docs/recovery.md); the shipped 0.43 stays inside the gap, nearer the leaks
    expect(Math.abs(out.suggestion.ceiling - DEFAULT_PROSE_CEILING)).toBeLessThanOrEqual(0.05);
    expect(r.code).toBe(0);
    // nearer the leaks: the quotations keep the larger margin
    expect(out.suggestion.leak_margin).toBeLessThan(out.suggestion.quotation_margin);
  });
});

describe('guard ceiling: table and exit codes', () => {
  it('exit 0: exact rows sorted by ratio with the ceiling marker between l1 and q1', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '0.5'], { cwd: small() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [table, summary, plot] = r.stdout.split('\n\n');
    expect(table!.split('\n')).toEqual([
      'reply  label      family  ratio  reason  check',
      'l0     leak       hermes   0.00',
      'l1     leak       hermes   0.33',
      '---- ceiling 0.50 ----------------------------',
      'q1     quotation  hermes   0.75  prose',
      'q2     quotation  hermes   0.80  prose',
    ]);
    expect(summary!.split('\n')).toEqual([
      'largest leak ratio        0.33  (small.jsonl:4 (l1))',
      'smallest quotation ratio  0.75  (small.jsonl:3 (q1))',
      'gap                       0.42',
      'ceiling 0.50 margins      0.17 above the largest leak, 0.25 below the smallest quotation',
      'separated: yes (2 leaks, 2 quotations)',
    ]);
    expect(plot!.split('\n')).toEqual([
      '           0.0  0.1  0.2  0.3  0.4  0.5  0.6  0.7  0.8  0.9  1.0',
      // columns: 0.33 → 17, ceiling 0.5 → 25, 0.75 → 38 (37.5 rounds up), 0.80 → 40
      'leak       o                o       |',
      'quotation                           |            o o',
      '           +----+----+----+----+----|----+----+----+----+----+',
      '                                    ^ ceiling 0.50',
      '           o one reply, 2-9 that many in one column, # ten or more; one column is 0.02',
      '',
    ]);
  });

  it('exit 1 naming the quotation moved below the bound', async () => {
    const moved = [...SMALL, rec('q-moved', 'quotation', `${prose(20)} abcde ${BLOCK}`)];
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '0.5'], { cwd: corpus({ 'small.jsonl': moved.join('\n') + '\n' }) });
    expect(r.code).toBe(1);
    const table = r.stdout.split('\n\n')[0]!.split('\n');
    expect(table.slice(1, 5)).toEqual([
      'l0       leak       hermes   0.00',
      'l1       leak       hermes   0.33',
      'q-moved  quotation  hermes   0.33          WRONG SIDE',
      '---- ceiling 0.50 -----------------------------------', // 7+9+6+5+6+10 + 5×2 = 53 wide
    ]);
    expect(r.stdout).toContain(
      'on the wrong side of the ceiling 0.50:\n  small.jsonl:5 (q-moved)  quotation  ratio 0.33 is not above the ceiling: this quotation is not read as prose (engine: recovered)\n',
    );
    expect(r.stdout).toMatch(/^separated: no, 1 of 5 on the wrong side \(2 leaks, 3 quotations\)$/m);
  });

  it('exit 2 for an empty corpus', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'empty.jsonl'], { cwd: corpus({ 'empty.jsonl': '' }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('guard: empty.jsonl: EMPTY_FILE: the input is empty\n');
    expect(r.stderr).toContain('guard: the corpus holds no labelled reply');
  });

  it('exit 2 for unlabelled replies only, naming them', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'u.jsonl'], { cwd: corpus({ 'u.jsonl': [rec('a', undefined, BLOCK), rec('b', undefined, BLOCK)].join('\n') }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'guard: 2 replies have no label and were left out: u.jsonl:1, u.jsonl:2\n' +
        'guard: the corpus holds no labelled reply (label "leak" or "quotation" in the record, or a <capture>.labels side file)\n',
    );
  });

  it('exit 2 for a corpus with one label only', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'l.jsonl'], { cwd: corpus({ 'l.jsonl': [SMALL[1], SMALL[3]].join('\n') }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('guard: the corpus has no quotation reply: the ceiling can only be checked between leaks and quotations\n');
  });

  it('exit 2 for a missing path and for a bad line, even when the rest separates', async () => {
    const missing = await runGuard(['ceiling', '--corpus', 'nope.jsonl'], { cwd: small() });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('guard: nope.jsonl: NO_MATCH: no such file or directory: nope.jsonl\n');
    const bad = await runGuard(['ceiling', '--corpus', 'b.jsonl'], { cwd: corpus({ 'b.jsonl': [...SMALL, '{"id": "broken",'].join('\n') }) });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^guard: b\.jsonl:5: INVALID_JSON: /m);
    expect(bad.stdout).toMatch(/^separated: yes/m);
  });

  it.skipIf(process.platform === 'win32' || process.getuid?.() === 0)('exit 2 for an unreadable file', async () => {
    const dir = small();
    chmodSync(join(dir, 'small.jsonl'), 0o000);
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^guard: small\.jsonl: UNREADABLE: cannot read the input: EACCES/m);
  });

  it('unlabelled replies beside labelled ones are left out with a note, not counted', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'm.jsonl'], { cwd: corpus({ 'm.jsonl': [...SMALL, rec('x', undefined, BLOCK)].join('\n') }) });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('guard: 1 reply has no label and was left out: m.jsonl:5\n');
  });

  it('a missing --corpus is a usage error', async () => {
    const r = await runGuard(['ceiling']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--corpus <paths...>' not specified");
  });
});

describe('guard ceiling: label side files', () => {
  const chat = (id: string, content: string) =>
    JSON.stringify({ id, object: 'chat.completion', model: 'm', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
  const chatCorpus = (labels: string) =>
    corpus({ 'c.jsonl': [chat('c-leak', BLOCK), chat('c-quote', `${prose(200)} ${BLOCK}`)].join('\n') + '\n', 'c.jsonl.labels': labels });

  it('labels replies of an API capture by id and line; the side file is not read as a capture', async () => {
    const r = await runGuard(['ceiling', '--corpus', '.', '--tools', 'f', '--format', 'json'], { cwd: chatCorpus('{"ids": {"c-leak": "leak"}, "lines": {"2": "quotation"}}') });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.rows.map((x: { source: string; label: string; outcome: string }) => [x.source, x.label, x.outcome])).toEqual([
      ['c.jsonl:1', 'leak', 'recovered'],
      ['c.jsonl:2', 'quotation', 'refused'],
    ]);
  });

  it('exit 2 for a side file entry that matches no reply, and for a bad side file', async () => {
    const stale = await runGuard(['ceiling', '--corpus', 'c.jsonl'], { cwd: chatCorpus('{"default": "leak", "lines": {"2": "quotation", "7": "leak"}}') });
    expect(stale.code).toBe(2);
    expect(stale.stderr).toBe('guard: c.jsonl.labels: lines["7"] matches no reply in c.jsonl\n');
    const bad = await runGuard(['ceiling', '--corpus', 'c.jsonl'], { cwd: chatCorpus('{"default": "leaks"}') });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('guard: c.jsonl.labels: default: label must be "leak" or "quotation", got "leaks"\n');
  });

  it('exit 2 when the record and the side file disagree', async () => {
    const dir = corpus({ 'r.jsonl': SMALL.join('\n'), 'r.jsonl.labels': '{"lines": {"1": "leak"}}' });
    const r = await runGuard(['ceiling', '--corpus', 'r.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('guard: r.jsonl:1: the record says "quotation" but the label file says "leak"\n');
  });
});

describe('guard ceiling: --ceiling, config, --suggest', () => {
  it('--ceiling checks another bound: 0.3 puts l1 above it (exit 1), 0.6 separates with the marker moved', async () => {
    const low = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '0.3'], { cwd: small() });
    expect(low.code).toBe(1);
    expect(low.stdout.split('\n').slice(1, 4)).toEqual([
      'l0     leak       hermes   0.00',
      '---- ceiling 0.30 ---------------------------------', // 5+9+6+5+6+10 + 5×2 = 51 wide
      'l1     leak       hermes   0.33  prose   WRONG SIDE',
    ]);
    expect(low.stdout).toContain('  small.jsonl:4 (l1)  leak  ratio 0.33 is above the ceiling: this leak is read as prose (engine: prose)\n');
    const high = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '0.6', '--format', 'json'], { cwd: small() });
    expect(high.code).toBe(0);
    const out = JSON.parse(high.stdout);
    expect(out.ceiling).toBe(0.6);
    expect(out.margins).toEqual({ leak: 0.266667, quotation: 0.15 });
  });

  it('--ceiling overrides the configuration, which is honoured otherwise', async () => {
    const dir = small();
    writeFileSync(join(dir, 'guard.config.yaml'), 'recovery:\n  prose_ceiling: 0.3\n');
    const fromConfig = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--format', 'json'], { cwd: dir });
    expect(fromConfig.code).toBe(1);
    expect(JSON.parse(fromConfig.stdout).ceiling).toBe(0.3);
    expect(fromConfig.stderr).toBe('guard: wrong side of the ceiling 0.3: small.jsonl:4 (l1) leak 0.33\n');
    const overridden = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '0.5'], { cwd: dir });
    expect(overridden.code).toBe(0);
  });

  it('--ceiling outside 0..1 is a usage error', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--ceiling', '1.5'], { cwd: small() });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("guard: --ceiling must be a number from 0 to 1, got '1.5'\n");
  });

  it('--suggest: one third of the gap above the largest leak (0.33 + 0.42/3 = 0.47)', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--suggest'], { cwd: small() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\nsuggested ceiling: 0.47\n');
    expect(r.stdout).toContain('  Suggested ceiling 0.47: margin 0.14 above the largest leak, 0.28 below the smallest quotation.\n');
    const json = JSON.parse((await runGuard(['ceiling', '--corpus', 'small.jsonl', '--suggest', '--format', 'json'], { cwd: small() })).stdout);
    expect(json.suggestion.ceiling).toBe(0.47);
    expect(json.suggestion.leak_margin).toBe(0.136667);
    expect(json.suggestion.quotation_margin).toBe(0.28);
  });
});

describe('guard ceiling: json and markdown', () => {
  it('json has the documented fields per row', async () => {
    const r = await runGuard(['ceiling', '--corpus', 'small.jsonl', '--format', 'json'], { cwd: small() });
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['ceiling', 'rows', 'max_leak', 'min_quotation', 'gap', 'margins', 'separated', 'wrong', 'counts']);
    expect(out.rows[1]).toEqual({
      id: 'l1',
      source: 'small.jsonl:4',
      label: 'leak',
      family: 'hermes',
      prose_ratio: 25 / 75,
      reason: 'ok',
      outcome: 'recovered',
      side: 'below',
      wrong_side: false,
    });
    expect(out.rows.map((x: { id: string }) => x.id)).toEqual(['l0', 'l1', 'q1', 'q2']);
    expect(out.max_leak).toBe(25 / 75);
    expect(out.min_quotation).toBe(0.75);
    expect(out.gap).toBe(0.416667);
    expect(out.separated).toBe(true);
  });

  it('markdown is a valid table: header, separator, the same column count on every row, the ceiling row in place', async () => {
    const moved = [...SMALL, rec('q|pipe', 'quotation', `${prose(20)} abcde ${BLOCK}`)];
    const r = await runGuard(['ceiling', '--corpus', 'm.jsonl', '--ceiling', '0.5', '--format', 'markdown'], { cwd: corpus({ 'm.jsonl': moved.join('\n') }) });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('guard: wrong side of the ceiling 0.5: m.jsonl:5 (q|pipe) quotation 0.33\n');
    const lines = r.stdout.split('\n');
    const table = lines.slice(0, lines.indexOf(''));
    expect(table[0]).toBe('| reply | label | family | prose ratio | reason | side |');
    expect(table[1]).toBe('|---|---|---|---:|---|---|');
    // cells split on pipes not preceded by a backslash
    const columns = (row: string) => row.split(/(?<!\\)\|/).length - 2;
    for (const row of table) {
      expect(row.startsWith('|') && row.endsWith('|')).toBe(true);
      expect(columns(row)).toBe(6);
    }
    expect(table.slice(2)).toEqual([
      '| l0 | leak | hermes | 0.00 |  | below |',
      '| l1 | leak | hermes | 0.33 |  | below |',
      '| q\\|pipe | quotation | hermes | 0.33 |  | **below (wrong side)** |',
      '| **ceiling 0.50** |  |  | **0.50** |  |  |',
      '| q1 | quotation | hermes | 0.75 | prose | above |',
      '| q2 | quotation | hermes | 0.80 | prose | above |',
    ]);
    expect(lines).toContain('- separated: no (1 on the wrong side) — 2 leaks, 3 quotations');
  });
});
