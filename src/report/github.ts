/**
 * GitHub Actions workflow commands: one `::error|warning|notice file=…,line=…,title=…::message`
 * line per unsuppressed finding and per input problem, written as they come. Syntax and escaping
 * follow GitHub's "Workflow commands for GitHub Actions" and actions/toolkit
 * `packages/core/src/command.ts`: in the message, `%` → `%25`, CR → `%0D`, LF → `%0A`; in property
 * values additionally `:` → `%3A` and `,` → `%2C`. Suppressed findings are not annotated.
 */

import type { CaptureError } from '../capture/types.js';
import type { FindingLevel, JudgedReply } from '../verdict/findings.js';
import { findingMessage } from './messages.js';
import type { Reporter } from './reporter.js';

/** Escapes a workflow command's message (data). */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow command's property value. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** The annotation command for a SARIF-style level. */
export function commandOf(level: FindingLevel): 'error' | 'warning' | 'notice' {
  return level === 'note' ? 'notice' : level;
}

/**
 * One workflow command line (with its final LF).
 *
 * @param props property values in order (undefined ones are left out); escaped here.
 */
export function workflowCommand(command: string, props: Record<string, string | number | undefined>, message: string): string {
  const list = Object.entries(props)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${list ? ` ${list}` : ''}::${escapeData(message)}\n`;
}

/** An annotation title for a rule id: `guard/<id>` (leak ids already start with `guard/`). */
export function titleOf(ruleId: string): string {
  return ruleId.startsWith('guard/') ? ruleId : `guard/${ruleId}`;
}

export interface GithubOptions {
  /** Mask secrets in excerpts (default true). */
  redact?: boolean;
}

export class GithubReporter implements Reporter {
  constructor(
    private readonly write: (s: string) => void,
    private readonly options: GithubOptions = {},
  ) {}

  reply(j: JudgedReply): void {
    const { file, line } = j.verdict.reply.source;
    for (const f of j.findings) {
      if (f.suppressed) continue;
      this.write(workflowCommand(commandOf(f.level), { file, line, title: titleOf(f.ruleId) }, findingMessage(f, j.verdict, this.options.redact ?? true)));
    }
  }

  error(e: CaptureError): void {
    this.write(workflowCommand(e.severity === 'error' ? 'error' : 'warning', { file: e.file, line: e.line ?? undefined, title: `guard ${e.code}` }, e.message));
  }

  fileEnd(): void {}
  finish(): void {}
}
