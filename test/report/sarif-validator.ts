/**
 * Validating SARIF in tests with Microsoft's SARIF validator (`Sarif.Multitool validate`, npm
 * @microsoft/sarif-multitool), with its GitHub code scanning rules (`--rule-kind Gh;Sarif`).
 *
 * npm's install-scripts policy skipped the package's postinstall `chmod u+x`, so the binary is
 * made executable here. When it cannot run on this platform, the SARIF 2.1.0 JSON schema the
 * package ships is used with Ajv instead; when neither is available, `validator` is null and the
 * reason says why (the tests skip with it).
 */

import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

export interface SarifProblem {
  level: string;
  ruleId: string;
  message: string;
}

export interface SarifValidator {
  kind: 'multitool' | 'schema';
  /** Problems found; the caller decides which levels fail. */
  validate(doc: unknown): SarifProblem[];
}

const require = createRequire(import.meta.url);

function multitoolPath(): string | null {
  try {
    return require('@microsoft/sarif-multitool') as string;
  } catch {
    try {
      return require(`@microsoft/sarif-multitool-${process.platform === 'win32' ? 'win32' : process.platform}`) as string;
    } catch {
      return null;
    }
  }
}

function ensureExecutable(bin: string): void {
  if (process.platform === 'win32') return;
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    chmodSync(bin, statSync(bin).mode | 0o111);
  }
}

function multitool(bin: string): SarifValidator {
  return {
    kind: 'multitool',
    validate(doc) {
      const dir = mkdtempSync(join(tmpdir(), 'guard-sarif-'));
      try {
        const input = join(dir, 'in.sarif');
        const output = join(dir, 'out.sarif');
        writeFileSync(input, JSON.stringify(doc));
        // The validator looks up json.schemastore.org and github.com (the schema and help URIs); where
        // there is no network each lookup waited out glibc's resolver (~25 s a run): one try of one second
        const env = { ...process.env, RES_OPTIONS: 'timeout:1 attempts:1' };
        const r = spawnSync(bin, ['validate', input, '-o', output, '--log', 'ForceOverwrite', '--rule-kind', 'Gh;Sarif'], { encoding: 'utf8', timeout: 120_000, env });
        if (!existsSync(output)) throw new Error(`Sarif.Multitool wrote no output (status ${r.status}): ${r.stdout}${r.stderr}`);
        const log = JSON.parse(readFileSync(output, 'utf8')) as { runs: Array<{ results?: Array<Record<string, any>> }> };
        return (log.runs[0]?.results ?? []).map((x) => ({
          level: (x['level'] as string | undefined) ?? 'warning',
          ruleId: String(x['ruleId']),
          message: JSON.stringify(x['message']),
        }));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function schemaValidator(schemaFile: string): SarifValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  const check = ajv.compile(JSON.parse(readFileSync(schemaFile, 'utf8')) as object);
  return {
    kind: 'schema',
    validate(doc) {
      return check(doc) ? [] : (check.errors ?? []).map((e) => ({ level: 'error', ruleId: 'schema', message: `${e.instancePath} ${e.message ?? ''}` }));
    },
  };
}

function load(): { validator: SarifValidator | null; reason: string } {
  const bin = multitoolPath();
  if (bin && existsSync(bin)) {
    try {
      ensureExecutable(bin);
      const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000 });
      if (r.status === 0) return { validator: multitool(bin), reason: '' };
    } catch {
      // fall through to the schema
    }
    const schema = join(bin, '..', 'sarif-2.1.0.json');
    if (existsSync(schema)) return { validator: schemaValidator(schema), reason: 'Sarif.Multitool cannot run here; validating against its SARIF 2.1.0 schema' };
  }
  return { validator: null, reason: `the SARIF validator (@microsoft/sarif-multitool) is not installed or cannot run on ${process.platform}/${process.arch}` };
}

export const { validator, reason } = load();

/** The problems of level error (the validator's warnings and notes are advice). */
export function sarifErrors(doc: unknown): SarifProblem[] {
  if (!validator) throw new Error(reason);
  return validator.validate(doc).filter((p) => p.level === 'error');
}
