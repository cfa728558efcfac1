/**
 * The output contract: one JSON record per reply (NDJSON and the `results` of JSON output), and one
 * per input problem. Field names are snake_case and stable; README "Output fields" documents them.
 */

import type { CaptureError, CaptureFormat } from '../capture/types.js';
import type { ReplyVerdict } from '../scan/judge.js';

export interface CallRecord {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface HitRecord {
  rule: string;
  action: 'block' | 'record';
  category: string;
  tool: string;
  call_id: string | null;
  /** `tool_call_blocked` when the reply is blocked by this hit under enforce, else `tool_call_flagged`. */
  event: 'tool_call_flagged' | 'tool_call_blocked';
  via: 'shell' | 'path' | 'raw';
  excerpt: string;
}

export interface ReplyRecord {
  file: string;
  line: number;
  id: string | null;
  format: CaptureFormat;
  model: string | null;
  advertised: string[] | null;
  truncated: boolean;
  tool_calls: Array<{ id: string | null; name: string; kind: string; arguments_error: string | null }>;
  recovery: {
    outcome: 'none' | 'recovered' | 'refused';
    reason: string;
    family: string | null;
    prose_ratio: number | null;
    calls: CallRecord[];
    detail: string;
  };
  inspection: {
    mode: 'off' | 'observe' | 'enforce';
    outcome: 'pass' | 'flag' | 'block';
    hits: HitRecord[];
  };
}

export interface ErrorRecord {
  file: string;
  line: number | null;
  error: { code: string; message: string; severity: 'error' | 'warning' };
}

/** Ratios are reported to 4 decimals so outputs are stable across platforms. */
function round4(x: number | null): number | null {
  return x === null ? null : Math.round(x * 10_000) / 10_000;
}

/** Converts a judged reply into its output record. */
export function replyRecord(v: ReplyVerdict): ReplyRecord {
  const { reply, recovery, inspection } = v;
  return {
    file: reply.source.file,
    line: reply.source.line,
    id: reply.id,
    format: reply.format,
    model: reply.model ?? null,
    advertised: reply.advertised === null ? null : reply.advertised.map((t) => t.name),
    truncated: reply.truncated,
    tool_calls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, kind: c.kind, arguments_error: c.argumentsError })),
    recovery: {
      outcome: recovery.outcome,
      reason: recovery.reason,
      family: recovery.family,
      prose_ratio: round4(recovery.proseRatio),
      calls: recovery.calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      detail: recovery.detail,
    },
    inspection: {
      mode: inspection.mode,
      outcome: inspection.outcome,
      hits: inspection.hits.map((h) => ({
        rule: h.rule,
        action: h.action,
        category: h.category,
        tool: h.tool,
        call_id: h.callId,
        event: inspection.mode === 'enforce' && h.action === 'block' ? 'tool_call_blocked' : 'tool_call_flagged',
        via: h.via,
        excerpt: h.excerpt,
      })),
    },
  };
}

/** Converts an input problem into its output record. */
export function errorRecord(e: CaptureError): ErrorRecord {
  return { file: e.file, line: e.line, error: { code: e.code, message: e.message, severity: e.severity } };
}
