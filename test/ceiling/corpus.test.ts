import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROSE_CEILING } from '../../src/recovery/types.js';
import { ROOT, runGuard } from '../cli/helpers.js';

const DIR = join(ROOT, 'fixtures/corpus');

/** Guard reply records of the corpus (the OpenAI Chat capture is labelled by its side file). */
function records(dir: string): Array<Record<string, unknown> & { file: string }> {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && f !== 'team-chat.jsonl')
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => ({ ...(JSON.parse(l) as Record<string, unknown>), file: f })),
    );
}

describe('the shipped corpus', () => {
  const recs = records(DIR);

  it('every record carries a label, a source and a unique id; public records keep their report', () => {
    const ids = new Set<unknown>();
    for (const r of recs) {
      expect(['leak', 'quotation']).toContain(r['label']);
      expect(typeof r['source']).toBe('string');
      expect(ids.has(r['id'])).toBe(false);
      ids.add(r['id']);
      if (r.file.startsWith('team-')) expect(r['source']).toBe('guard team');
      else expect(r['source']).toMatch(/^[\w.-]+\/[\w.-]+#\d+/);
    }
  });

  it('holds at least 8 replies of each label, from several families, public and the team own', async () => {
    const out = JSON.parse((await runGuard(['ceiling', '--corpus', 'fixtures/corpus', '--format', 'json'])).stdout);
    const families = (label: string) => new Set(out.rows.filter((r: { label: string }) => r.label === label).map((r: { family: string }) => r.family));
    expect(out.counts.leak).toBe(33);
    expect(out.counts.quotation).toBe(24);
    expect(families('leak').size).toBeGreaterThanOrEqual(10);
    expect(families('quotation').size).toBeGreaterThanOrEqual(8);
    expect(recs.filter((r) => r['label'] === 'quotation' && r['source'] !== 'guard team').map((r) => r['id'])).toEqual(['h052']);
  });

  it('the dense narrations (once kept apart in .open, measured 0.07-0.49) are in the corpus, above the ceiling as quoted', async () => {
    const out = JSON.parse((await runGuard(['ceiling', '--corpus', 'fixtures/corpus', '--format', 'json'])).stdout);
    const open = out.rows.filter((r: { id: string }) => r.id.startsWith('team-open-'));
    expect(open.length).toBe(13);
    for (const r of open) {
      expect([r.id, r.label, r.reason, r.outcome, r.side], r.id).toEqual([r.id, 'quotation', 'quoted', 'refused', 'above']);
      expect(r.source, r.id).toMatch(/^fixtures\/corpus\/team-quotations\.jsonl:\d+$/);
    }
    expect(readdirSync(DIR)).not.toContain('.open');
  });
});

describe('colour', () => {
  it('NO_COLOR gives plain text; FORCE_COLOR colours the rows and the ceiling', async () => {
    const plain = await runGuard(['ceiling', '--corpus', 'fixtures/corpus']);
    expect(plain.stdout).not.toMatch(/\u001b\[/);
    const coloured = await runGuard(['ceiling', '--corpus', 'fixtures/corpus'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(new RegExp(`\u001b\\[33m---- ceiling ${DEFAULT_PROSE_CEILING.toFixed(2).replace('.', '\\.')}`));
    // the same text once the colour codes are removed
    expect(coloured.stdout.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain.stdout);
  });
});
