#!/usr/bin/env node
/**
 * Writes src/base/secret-rules.json, the secret patterns guard masks in everything it writes,
 * from gitleaks' default rule list (https://github.com/gitleaks/gitleaks, config/gitleaks.toml,
 * MIT licence). Usage: node scripts/update-secret-rules.mjs PATH/TO/gitleaks.toml COMMIT
 *
 * Each rule keeps its id, regex (RE2 syntax, converted to JavaScript where the syntax differs:
 * `(?P<n>` → `(?<n>`, `\z` → `$`, `[[:alnum:]]` → `[a-zA-Z0-9]`, inline `(?i)`/`(?i:…)`/`(?s:…)` → a
 * flag of the whole pattern, which can only widen what is masked), keywords, entropy and secret
 * group. Rules whose converted pattern does not compile are left out and listed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'smol-toml';

const [file, commit] = process.argv.slice(2);
if (!file || !commit) {
  console.error('usage: node scripts/update-secret-rules.mjs PATH/TO/gitleaks.toml COMMIT');
  process.exit(2);
}
const config = parse(readFileSync(file, 'utf8'));
const rules = [];
const dropped = [];
for (const r of config.rules) {
  if (typeof r.regex !== 'string') continue;
  let source = r.regex;
  let flags = '';
  if (/\(\?i\)|\(\?i:/.test(source)) flags += 'i';
  if (/\(\?s\)|\(\?s:/.test(source)) flags += 's';
  source = source
    .replace(/\(\?[is]+\)/g, '')
    .replace(/\(\?-?[is]+:/g, '(?:')
    .replace(/\(\?P</g, '(?<')
    .replace(/\\z/g, '$')
    .replace(/\[\[:alnum:\]\]/g, '[a-zA-Z0-9]')
    .replace(/\[:alnum:\]/g, 'a-zA-Z0-9');
  try {
    new RegExp(source, flags);
  } catch (e) {
    dropped.push(`${r.id}: ${e.message}`);
    continue;
  }
  rules.push({ id: r.id, regex: source, flags, keywords: (r.keywords ?? []).map((k) => k.toLowerCase()), ...(r.entropy ? { entropy: r.entropy } : {}), ...(r.secretGroup ? { secret_group: r.secretGroup } : {}) });
}
const out = {
  source: `https://github.com/gitleaks/gitleaks/blob/${commit}/config/gitleaks.toml`,
  license: 'MIT (Copyright (c) 2019 Zachary Rice); see https://github.com/gitleaks/gitleaks/blob/master/LICENSE',
  generated_by: 'scripts/update-secret-rules.mjs',
  rules,
};
writeFileSync(new URL('../src/base/secret-rules.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
console.log(`${rules.length} rules written${dropped.length ? `; left out: ${dropped.join('; ')}` : ''}`);
