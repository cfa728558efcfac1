/**
 * The inspection part of guard.config.yaml: schema problems and rule-set problems (unknown ids,
 * duplicate or empty ids and names, patterns that do not compile, failing examples) are refused
 * before any scan, each on its YAML line; the shipped JSON Schema equals the generated one.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, test } from 'vitest';
import YAML from 'yaml';
import { ConfigError, configLine, loadConfig, parseConfig } from '../../src/config/load.js';
import { CONFIG_SCHEMA, SCHEMA_FILE, schemaFileText } from '../../src/config/schema.js';

const DIR = fileURLToPath(new URL('../../fixtures/inspection/config/', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function problems(file: string): Promise<Array<[number | null, string]>> {
  try {
    await loadConfig(file, DIR);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems.map((p) => {
      expect(p.file).toBe(file);
      return [p.line, p.message];
    });
  }
  throw new Error(`${file} loaded without problems`);
}

describe('loading', () => {
  test('a valid file gives every setting and the line of each custom rule', async () => {
    const c = await loadConfig('valid.yaml', DIR);
    expect(c.path).toBe('valid.yaml');
    expect(c.inspection.mode).toBe('enforce');
    expect(c.inspection.disabled).toEqual(['git-reset-hard', 'npm-publish']);
    expect(c.inspection.actions).toEqual({ 'eval-dynamic': 'block', 'curl-pipe-shell': 'record' });
    expect(c.inspection.rules?.map((r) => (r as { id: string }).id)).toEqual(['prod-psql', 'npm-publish', 'secrets-dir-write']);
    expect(c.ruleLines).toEqual([9, 18, 24]);
    expect(configLine(c, '/inspection/rules/0/command')).toBe(13);
    expect(configLine(c, '/inspection/rules/2/examples/match/0')).toBe(30);
    // a property that is not in the file is placed on the nearest thing that is
    expect(configLine(c, '/inspection/rules/1/name')).toBe(18);
  });

  test('rule-set problems are all reported, in line order, each on its line', async () => {
    expect(await problems('problems.yaml')).toEqual([
      [5, 'rule no-such-rule: unknown rule id "no-such-rule" in `disabled` (not a built-in or custom rule)'],
      [7, 'rule also-missing: unknown rule id "also-missing" in `actions` (not a built-in or custom rule)'],
      [14, 'rule prod-psql: example should match but does not: "psql -h db.dev"'],
      [17, 'rule lookahead: `command` pattern does not compile: invalid perl operator: (?='],
      [18, 'rule prod-psql: duplicate custom rule id'],
      [22, 'rule named-twice: duplicate rule name "production PSQL" (also custom rule prod-psql)'],
      [25, 'rule rm-rf-root: custom rule id clashes with a built-in rule'],
    ]);
  });

  test('schema problems: empty or malformed ids, blank names, no matcher, unknown keys, empty argv prefix', async () => {
    expect(await problems('schema-problems.yaml')).toEqual([
      [3, '/inspection/mode: must be equal to one of the allowed values (off, observe, enforce)'],
      [5, '/inspection/rules/0/id: must be a non-empty kebab-case id (a-z, 0-9, -)'],
      [8, '/inspection/rules/1/id: must be a non-empty kebab-case id (a-z, 0-9, -)'],
      [9, '/inspection/rules/1/name: must not be blank'],
      [12, "/inspection/rules/2: needs one of 'command', 'argv_prefix', 'path'"],
      [14, "/inspection/rules/2: unknown property 'colour' (allowed: id, name, description, help, category, action, tools, command, argv_prefix, path, flags, examples)"],
      [17, '/inspection/rules/3/argv_prefix: must NOT have fewer than 1 items'],
    ]);
  });

  test('a failing not_match example names the line of that example', async () => {
    const text = ['inspection:', '  rules:', '    - id: any-rm', '      description: any rm', '      argv_prefix: [rm]', '      examples:', '        not_match:', '          - ls', '          - rm x'].join('\n');
    const { writeFileSync, mkdtempSync } = await import('node:fs');
    const dir = mkdtempSync(`${(await import('node:os')).tmpdir()}/guard-cfg-`);
    writeFileSync(`${dir}/guard.config.yaml`, text);
    await expect(loadConfig(undefined, dir)).rejects.toThrow('guard.config.yaml:9: rule any-rm: example should not match but does: "rm x"');
  });

  test('parseConfig alone checks the schema only; the rules are built by loadConfig', () => {
    const c = parseConfig('inspection:\n  disabled: [no-such-rule]\n', 'x.yaml');
    expect(c.inspection.disabled).toEqual(['no-such-rule']);
    expect(c.lines['/inspection/disabled/0']).toBe(2);
  });

  test('no file in the working directory is an empty configuration', async () => {
    const c = await loadConfig(undefined, `${DIR}/..`);
    expect(c).toEqual({ path: null, recovery: {}, inspection: {}, scan: {}, ruleLines: [], lines: {} });
  });
});

describe('the JSON Schema shipped for editors', () => {
  test(`${SCHEMA_FILE} equals the schema generated from src/config/schema.ts (run npm run schema)`, () => {
    expect(readFileSync(`${ROOT}${SCHEMA_FILE}`, 'utf8')).toBe(schemaFileText());
  });

  test('is listed in the package files', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { files: string[] };
    expect(pkg.files).toContain(SCHEMA_FILE.split('/')[0]);
  });

  test('validates a custom rule item precisely, not as any object', () => {
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(JSON.parse(schemaFileText()) as typeof CONFIG_SCHEMA);
    const valid = YAML.parse(readFileSync(`${DIR}valid.yaml`, 'utf8'));
    expect(validate(valid)).toBe(true);
    const bad = { inspection: { rules: [{ id: 'x', description: 'y', command: 'z', action: 'cut' }, { id: 'x2', description: 'y', tools: [] , path: 'p' }] } };
    expect(validate(bad)).toBe(false);
    expect(validate.errors?.map((e) => `${e.instancePath} ${e.keyword}`)).toEqual(['/inspection/rules/0/action enum', '/inspection/rules/1/tools minItems']);
  });
});
