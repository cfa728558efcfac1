/** docs/rules.md lists every built-in rule with its category and default action. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { BUILTIN_RULES } from '../../src/inspection/index.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/rules.md', import.meta.url)), 'utf8');

test.each(BUILTIN_RULES.map((r) => [r.id, r.category, r.action, r.attack ?? '–']))('docs/rules.md row for %s', (id, category, action, attack) => {
  const row = doc.split('\n').find((l) => l.startsWith(`| \`${id}\` |`));
  expect(row?.split('|').slice(2, 5).map((c) => c.trim())).toEqual([category, action, attack]);
});

test('docs/rules.md lists no rule that does not exist', () => {
  const section = doc.slice(doc.indexOf('## Built-in rules'), doc.indexOf('## Configuration'));
  const listed = [...section.matchAll(/^\| `([a-z0-9-]+)` \|/gm)].map((m) => m[1]);
  expect(listed).toEqual(BUILTIN_RULES.map((r) => r.id));
});
