/**
 * Finding the tool call a rule hit came from, and the un-redacted text of its excerpt.
 *
 * A {@link RuleHit} carries its tool name, call id (null when the capture has none) and an
 * excerpt that the inspection engine has already whitespace-collapsed and secret-masked
 * (src/inspection/engine.ts `excerpt`, masks from src/inspection/redact.ts). The engine keeps no
 * span, so the raw excerpt for `--no-redact` is found again by matching the masked excerpt as a
 * pattern over the call's own argument text: a run of `*` (a mask, or part of one cut by the
 * excerpt window) matches any run of non-space characters, a space matches any whitespace, and
 * the PEM placeholder matches a private key block. Pure.
 */

import type { RuleHit } from '../inspection/types.js';
import { MAX_EXCERPT } from '../inspection/index.js';
import type { ReplyVerdict } from './judge.js';

/** A tool call of a reply, structured or recovered, as far as reports need it. */
export interface CallRef {
  id: string | null;
  name: string;
  /** Decoded arguments, or null when they did not parse. */
  arguments: Record<string, unknown> | null;
  argumentsRaw: string;
}

/** The calls inspection saw for a reply, in the engine's order: structured, then recovered. */
export function callsOf(v: ReplyVerdict): CallRef[] {
  return [...v.reply.toolCalls, ...v.recovery.calls, ...v.recovery.candidates];
}

/** What redactSecrets puts in place of a PEM private key block. */
const PEM_PLACEHOLDER = '-----BEGIN PRIVATE KEY----- *** (redacted)';
const PEM_PATTERN = '-----BEGIN[^\\n]*?PRIVATE KEY(?: BLOCK)?-----[\\s\\S]*?(?:-----END[^\\n]*?PRIVATE KEY(?: BLOCK)?-----|$)';

function escapeRe(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Turns a masked excerpt into a pattern over the raw text it was cut from. */
export function maskedExcerptPattern(masked: string): RegExp {
  const parts = masked.split(PEM_PLACEHOLDER);
  const body = parts
    .map((part) => {
      const pieces = part.split(/(\*+| )/).filter((p) => p !== '');
      return pieces
        .map((p, i) => {
          if (p === ' ') return '\\s+';
          if (p.startsWith('*')) return i === pieces.length - 1 ? '\\S*' : '\\S*?';
          return escapeRe(p);
        })
        .join('');
    })
    .join(PEM_PATTERN);
  return new RegExp(body);
}

/** How many excerpt patterns {@link excerptPattern} keeps; the cache is emptied when full. */
const PATTERN_CACHE_SIZE = 1024;
const patternCache = new Map<string, RegExp | null>();

/**
 * {@link maskedExcerptPattern} of a masked excerpt, or null when it cannot be compiled, built once
 * per distinct excerpt: a scan sees the same few excerpts (one rule, one command shape) over and
 * over. The patterns have no `g` or `y` flag, so `exec` keeps no state in them and sharing one
 * between hits cannot change a match. At most {@link PATTERN_CACHE_SIZE} entries of at most
 * MAX_EXCERPT characters each.
 */
function excerptPattern(masked: string): RegExp | null {
  let pattern = patternCache.get(masked);
  if (pattern !== undefined) return pattern;
  try {
    pattern = maskedExcerptPattern(masked);
  } catch {
    pattern = null;
  }
  if (patternCache.size >= PATTERN_CACHE_SIZE) patternCache.clear();
  patternCache.set(masked, pattern);
  return pattern;
}

/** Every string a call's arguments hold (leaves, and string arrays joined by spaces), then the raw argument text. */
function textsOf(call: CallRef): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): void => {
    if (depth > 32) return;
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) {
      if (v.length && v.every((x) => typeof x === 'string')) out.push(v.join(' '));
      for (const x of v) walk(x, depth + 1);
    } else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(call.arguments, 0);
  out.push(call.argumentsRaw);
  return out;
}

/** Where a hit came from: its call (null when none matches) and the excerpt cut from the raw text (null when not found). */
export interface LocatedHit {
  call: CallRef | null;
  rawExcerpt: string | null;
}

/**
 * Finds the call a hit was raised on and its un-redacted excerpt.
 *
 * @param hit a hit of the reply's inspection verdict.
 * @param calls the reply's calls ({@link callsOf}).
 * @returns the call with the hit's tool name and call id whose argument text contains the
 *   excerpt (the first such call when none does), and the matching raw text, whitespace collapsed,
 *   at most {@link MAX_EXCERPT} characters; null fields when nothing matches. Never throws.
 */
export function locateHit(hit: RuleHit, calls: readonly CallRef[]): LocatedHit {
  const candidates = calls.filter((c) => c.name === hit.tool && (c.id ?? null) === hit.callId);
  const pattern = hit.excerpt ? excerptPattern(hit.excerpt) : null;
  for (const call of candidates) {
    if (!pattern) break;
    for (const text of textsOf(call)) {
      const m = pattern.exec(text.length > 65_536 ? text.slice(0, 65_536) : text);
      if (m) return { call, rawExcerpt: m[0].replace(/\s+/g, ' ').trim().slice(0, MAX_EXCERPT) };
    }
  }
  return { call: candidates[0] ?? null, rawExcerpt: null };
}
