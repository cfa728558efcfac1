/**
 * `guard rules list|show|test|check`: the inspection rules in force, one rule explained, a sample
 * tried against the configuration being edited, and a check of that configuration (docs/rules.md).
 *
 * Exit codes: `list` and `show` 0 (`show` 2 for an unknown id); `test` 1 when the sample hits any rule, 0 when none; `check` 0 when the
 * configuration is valid; every subcommand 2 on a bad configuration or input.
 */

import { Option, type Command } from 'commander';
import { loadConfig, type GuardConfig } from '../../config/load.js';
import { checkBuiltinExamples, inspectCalls, RuleSetError, type InspectableCall, type RuleHit, type RuleSet, type RuleStatus } from '../../inspection/index.js';
import type { InspectionMode } from '../../inspection/types.js';
import { ruleHitRecord } from '../../verdict/hit-record.js';
import { resolveEngines } from '../engines.js';
import { EXIT, UsageError } from '../errors.js';
import type { CliIO } from '../io.js';
import type { CommandState } from '../state.js';
import { attackUrl, findingRules } from '../../verdict/catalogue.js';
import type { FindingKind } from '../../verdict/findings.js';
import { printable } from '../../report/printable.js';
import { ruleLinks } from '../version.js';
import { CONFIG_OPTION_HELP } from '../flags.js';

const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

/** Largest sample read from stdin, in bytes. */
const MAX_SAMPLE_BYTES = 16 * 1024 * 1024;

interface ConfigFlag {
  config?: string;
}

/** The configuration and the rule set it builds (shared with `guard scan` through resolveEngines). */
async function loadRules(flags: ConfigFlag, io: CliIO): Promise<{ config: GuardConfig; ruleSet: RuleSet; mode: InspectionMode }> {
  const config = await loadConfig(flags.config, io.cwd);
  const { ruleSet, mode } = await resolveEngines(config, {});
  return { config, ruleSet, mode };
}

export function registerRules(program: Command, io: CliIO, state: CommandState): void {
  const rules = program.command('rules').description('list the inspection rules, try a sample against them, or check the configuration');
  const configOption = () => new Option('-c, --config <file>', CONFIG_OPTION_HELP);
  const formatOption = () => new Option('-f, --format <format>', 'output format').choices([...FORMATS]).default('text');

  rules
    .command('list')
    .description('every rule with its category, the action in force, whether it is on, and its source')
    .addOption(configOption())
    .addOption(formatOption())
    .action(async (flags: ConfigFlag & { format: Format }) => {
      state.exitCode = await listCommand(flags, io);
    });

  rules
    .command('test')
    .description('run a sample (a command string, or a JSON arguments object) against the rules; exit 1 when any rule hits')
    .argument('<sample>', 'a shell command, an arguments object as JSON, or - to read the sample from stdin')
    .addOption(configOption())
    .option('--tool <name>', 'the tool the sample is a call of', 'bash')
    .addOption(formatOption())
    .action(async (sample: string, flags: ConfigFlag & { tool: string; format: Format }) => {
      state.exitCode = await testCommand(sample, flags, io);
    });

  rules
    .command('show')
    .description('explain one rule: what it catches, why it is dangerous, examples that hit and near misses, action, category, ATT&CK technique')
    .argument('<id>', 'a rule id (guard rules list), or a leak rule such as guard/leak-refused/truncated')
    .addOption(configOption())
    .addOption(formatOption())
    .action(async (id: string, flags: ConfigFlag & { format: Format }) => {
      state.exitCode = await showCommand(id, flags, io);
    });

  rules
    .command('check')
    .description('validate the configuration (schema, rule ids, patterns, examples); exit 2 on any problem')
    .addOption(configOption())
    .action(async (flags: ConfigFlag) => {
      state.exitCode = await checkCommand(flags, io);
    });
}

/** Where a rule comes from: `builtin`, or the configuration file that defines it. */
function sourceOf(status: RuleStatus, config: GuardConfig): string {
  return status.source === 'builtin' ? 'builtin' : (config.path ?? 'config');
}

async function listCommand(flags: ConfigFlag & { format: Format }, io: CliIO): Promise<number> {
  const { config, ruleSet, mode } = await loadRules(flags, io);
  const rows = ruleSet.catalogue.map((s) => ({
    id: s.rule.id,
    name: s.rule.name,
    category: s.rule.category,
    action: s.rule.action,
    attack: s.rule.attack ?? null,
    enabled: s.enabled,
    source: sourceOf(s, config),
    description: s.rule.description,
  }));
  if (flags.format === 'json') {
    io.stdout.write(`${JSON.stringify({ config: config.path, mode, rules: rows }, null, 2)}\n`);
    return EXIT.OK;
  }
  const width = (k: 'id' | 'category' | 'source') => Math.max(k.length, ...rows.map((r) => r[k].length));
  const [wi, wc, ws] = [width('id'), width('category'), width('source')];
  const line = (id: string, cat: string, action: string, attack: string, on: string, source: string, desc: string) =>
    `${id.padEnd(wi)}  ${cat.padEnd(wc)}  ${action.padEnd(6)}  ${attack.padEnd(9)}  ${on.padEnd(3)}  ${source.padEnd(ws)}  ${desc}`.trimEnd() + '\n';
  io.stdout.write(line('id', 'category', 'action', 'att&ck', 'on', 'source', 'description'));
  for (const r of rows) {
    io.stdout.write(line(printable(r.id), printable(r.category), r.action, r.attack ? printable(r.attack) : '-', r.enabled ? 'on' : 'off', printable(r.source), printable(r.description)));
  }
  const on = rows.filter((r) => r.enabled).length;
  io.stdout.write(`${rows.length} rules, ${on} on, ${rows.length - on} off; mode ${mode}${config.path ? ` (${config.path})` : ''}\n`);
  return EXIT.OK;
}

/** One rule as `guard rules show -f json` writes it (schema/rules-show.schema.json). */
export interface RuleShowRecord {
  id: string;
  name: string;
  kind: FindingKind;
  category: string;
  /** The action in force for an inspection rule; null for leak rules. */
  action: 'block' | 'record' | null;
  enabled: boolean;
  source: string;
  description: string;
  help: string;
  /** The MITRE ATT&CK technique, when the rule has one. */
  attack: string | null;
  attack_url: string | null;
  examples: { match: string[]; not_match: string[] };
  help_uri: string | null;
}

export { attackUrl };

/** The record of `rules show ID`, or null when no rule has that id. */
export function ruleShowRecord(id: string, ruleSet: RuleSet, config: GuardConfig): RuleShowRecord | null {
  const links = ruleLinks();
  const status = ruleSet.catalogue.find((s) => s.rule.id === id);
  if (status) {
    const r = status.rule;
    const attack = r.attack ?? null;
    return {
      id: r.id,
      name: r.name,
      kind: 'rule-hit',
      category: r.category,
      action: r.action,
      enabled: status.enabled,
      source: sourceOf(status, config),
      description: r.description,
      help: r.help,
      attack,
      attack_url: attack ? attackUrl(attack) : null,
      examples: { match: [...r.examples.match], not_match: [...r.examples.not_match] },
      help_uri: status.source === 'builtin' ? (links?.helpUri(r.id) ?? null) : null,
    };
  }
  const leak = findingRules([]).find((r) => r.id === id);
  if (!leak) return null;
  return {
    id: leak.id,
    name: leak.name,
    kind: leak.kind,
    category: leak.category,
    action: null,
    enabled: true,
    source: 'builtin',
    description: leak.description,
    help: leak.help,
    attack: leak.attack,
    attack_url: leak.attack ? attackUrl(leak.attack) : null,
    examples: { match: [], not_match: [] },
    help_uri: links?.helpUri(leak.id) ?? null,
  };
}

/** Words wrapped at `width` columns, each line indented. */
function wrap(text: string, indent: string, width = 92): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines.join('\n');
}

async function showCommand(id: string, flags: ConfigFlag & { format: Format }, io: CliIO): Promise<number> {
  const { config, ruleSet } = await loadRules(flags, io);
  const rec = ruleShowRecord(id, ruleSet, config);
  if (!rec) {
    const ids = [...ruleSet.catalogue.map((s) => s.rule.id), ...findingRules([]).map((r) => r.id)];
    const near = ids.filter((x) => x.includes(id) || id.includes(x)).slice(0, 5);
    throw new UsageError(`no rule with id ${JSON.stringify(printable(id))}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}: guard rules list shows them all`);
  }
  if (flags.format === 'json') {
    io.stdout.write(`${JSON.stringify(rec, null, 2)}\n`);
    return EXIT.OK;
  }
  const p = printable;
  const out: string[] = [];
  const action = rec.action === null ? 'reported as a finding (no action: a recovery outcome)' : `${rec.action}${rec.action === 'block' ? ' (blocks the reply under --mode enforce)' : ' (recorded, never blocks)'}`;
  out.push(`${p(rec.id)}${rec.name !== rec.id ? ` (${p(rec.name)})` : ''}`);
  out.push(wrap(p(rec.description), '  '));
  out.push('');
  out.push(`  category:  ${p(rec.category)}`);
  out.push(`  action:    ${action}`);
  out.push(`  status:    ${rec.enabled ? 'on' : 'off (disabled in the configuration)'}, ${p(rec.source)}`);
  out.push(`  ATT&CK:    ${rec.attack ? `${p(rec.attack)}${rec.attack_url ? ` ${rec.attack_url}` : ''}` : 'none fits'}`);
  out.push('');
  out.push(rec.kind === 'rule-hit' ? 'Why it is dangerous, and what to do about a hit:' : 'What it means, and what to do:');
  out.push(wrap(p(rec.help), '  '));
  if (rec.examples.match.length) {
    out.push('', 'Examples that hit:');
    for (const e of rec.examples.match) out.push(`  ✗ ${p(e)}`);
  }
  if (rec.examples.not_match.length) {
    out.push('', 'Near misses (do not hit):');
    for (const e of rec.examples.not_match) out.push(`  ✓ ${p(e)}`);
  }
  if (rec.help_uri) out.push('', `Documentation: ${rec.help_uri}`);
  io.stdout.write(`${out.join('\n')}\n`);
  return EXIT.OK;
}

/** Reads all of stdin as UTF-8, refusing more than {@link MAX_SAMPLE_BYTES}. */
async function readStdin(io: CliIO): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of io.stdin) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += b.length;
    if (size > MAX_SAMPLE_BYTES) throw new UsageError(`the sample on stdin is larger than ${MAX_SAMPLE_BYTES} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The call a sample stands for. Text that opens a JSON object (`{"…` or `{}`) must parse as one
 * and is the arguments object; anything else is a command string, passed as `{command: …}`.
 *
 * @throws UsageError for an empty sample or JSON that does not parse to an object.
 */
export function sampleCall(sample: string, tool: string): InspectableCall {
  if (sample.trim() === '') throw new UsageError('the sample is empty: give a command string or a JSON arguments object');
  if (/^\s*\{\s*["}]/.test(sample)) {
    let value: unknown;
    try {
      value = JSON.parse(sample);
    } catch (err) {
      throw new UsageError(`the sample looks like a JSON arguments object but does not parse: ${(err as Error).message}`);
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('a JSON sample must be an arguments object');
    return { id: null, name: tool, arguments: value as Record<string, unknown>, argumentsRaw: sample, origin: 'structured' };
  }
  const args = { command: sample };
  return { id: null, name: tool, arguments: args, argumentsRaw: JSON.stringify(args), origin: 'structured' };
}

function describeOutcome(hits: RuleHit[], mode: InspectionMode): string {
  const blockers = hits.filter((h) => h.action === 'block').length;
  const count = `${hits.length} hit${hits.length === 1 ? '' : 's'}`;
  if (mode === 'off') return `${count}; mode off: guard scan would not inspect this call`;
  if (mode === 'enforce') return `${count}; mode enforce: ${blockers ? 'the reply would be blocked' : hits.length ? 'flagged, not blocked' : 'pass'}`;
  return `${count}; mode observe: ${hits.length ? `flagged${blockers ? ` (${blockers} graded block: enforce would block)` : ''}` : 'pass'}`;
}

async function testCommand(sample: string, flags: ConfigFlag & { tool: string; format: Format }, io: CliIO): Promise<number> {
  const { ruleSet, mode } = await loadRules(flags, io);
  const text = sample === '-' ? await readStdin(io) : sample;
  const call = sampleCall(text, flags.tool);
  // the rules run whatever the mode, so a rule can be tried before inspection is switched on
  const { hits } = inspectCalls([call], ruleSet, 'observe');
  if (flags.format === 'json') {
    io.stdout.write(`${JSON.stringify({ tool: call.name, mode, hits: hits.map(ruleHitRecord), summary: describeOutcome(hits, mode) }, null, 2)}\n`);
  } else {
    for (const h of hits) io.stdout.write(`${printable(h.rule)}  ${h.action}  ${printable(h.category)}  via ${h.via}  ${printable(h.excerpt)}\n`);
    io.stdout.write(`${describeOutcome(hits, mode)}\n`);
  }
  return hits.length ? EXIT.FINDINGS : EXIT.OK;
}

async function checkCommand(flags: ConfigFlag, io: CliIO): Promise<number> {
  const { config, ruleSet, mode } = await loadRules(flags, io);
  // the built-in rules' own examples: a self-check of the installed copy (scans skip it)
  const broken = checkBuiltinExamples();
  if (broken.length) throw new RuleSetError(broken);
  const custom = ruleSet.catalogue.filter((s) => s.source === 'custom').length;
  const off = ruleSet.catalogue.filter((s) => !s.enabled).length;
  const what = `${ruleSet.catalogue.length - custom} built-in and ${custom} custom rules, ${off} off, mode ${mode}`;
  io.stdout.write(config.path ? `${printable(config.path)}: ok (${what})\n` : `no configuration file found: built-in rules only, ok (${what})\n`);
  return EXIT.OK;
}
