#!/usr/bin/env node
// Rewrites the "Rule reference" section of docs/rules.md from the rules' own data
// (src/cli/rule-docs.ts; run after npm run build: `npm run docs:rules`).
import { readFileSync, writeFileSync } from 'node:fs';
import { withRuleReference } from '../dist/cli/rule-docs.js';

const file = new URL('../docs/rules.md', import.meta.url);
writeFileSync(file, withRuleReference(readFileSync(file, 'utf8')));
console.log('docs/rules.md: rule reference written');
