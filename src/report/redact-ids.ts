/**
 * Masks secrets in the identifiers a report writes that come from a capture: the file name, the
 * reply's id and model, the advertised tools' names, its structured tool calls' ids and names, the
 * tool and call id of each rule hit, and the recovery detail (which may quote a framing phrase). Excerpts, messages and texts are masked where each format writes them; these
 * fields are written verbatim by every format, so they are masked once, before any reporter sees
 * the reply (issue 14: a token pasted as a model name or an id reached every format).
 */

import { redactSecrets } from '../base/redact.js';
import type { Finding, JudgedReply } from '../verdict/findings.js';

/** A rule hit, as findings carry it. */
type RuleHit = NonNullable<Finding['hit']>;

/** Identifiers repeat (one file name and one model for thousands of replies): masked once each, up to this many kept. */
const MEMO_LIMIT = 1024;

/** {@link redactSecrets} with a bounded memo: the memo is dropped whole when it fills. */
export class IdentifierRedactor {
  private readonly memo = new Map<string, string>();

  /** The identifier with secrets masked (the same function as every other capture-derived string). */
  mask(s: string): string {
    const hit = this.memo.get(s);
    if (hit !== undefined) return hit;
    const masked = redactSecrets(s);
    if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
    this.memo.set(s, masked);
    return masked;
  }

  /**
   * A copy of `judged` whose capture-derived identifiers are masked; `judged` itself is unchanged
   * (findings and fingerprints were computed from the real values). Returns `judged` itself when
   * nothing needed masking.
   *
   * @param judged a judged reply, as the report pipeline hands it to a reporter.
   * @returns the reply to report.
   */
  reply(judged: JudgedReply): JudgedReply {
    const v = judged.verdict;
    const r = v.reply;
    const file = this.mask(r.source.file);
    const id = r.id === null ? null : this.mask(r.id);
    const model = r.model === undefined ? undefined : this.mask(r.model);
    let callsChanged = false;
    const toolCalls = r.toolCalls.map((c) => {
      const cid = c.id === null ? null : this.mask(c.id);
      const name = this.mask(c.name);
      if (cid === c.id && name === c.name) return c;
      callsChanged = true;
      return { ...c, id: cid, name };
    });
    let hitsChanged = false;
    const maskHit = (h: RuleHit): RuleHit => {
      const callId = h.callId === null ? null : this.mask(h.callId);
      const tool = this.mask(h.tool);
      if (callId === h.callId && tool === h.tool) return h;
      hitsChanged = true;
      return { ...h, callId, tool };
    };
    const hits = v.inspection.hits.map(maskHit);
    const findings = judged.findings.map((f) => (f.hit === null ? f : { ...f, hit: maskHit(f.hit) }));
    let toolsChanged = false;
    const advertised = r.advertised === null ? null : r.advertised.map((t) => {
      const name = this.mask(t.name);
      if (name === t.name) return t;
      toolsChanged = true;
      return { ...t, name };
    });
    // the recovery detail may quote the reply's words (a framing phrase)
    const detail = this.mask(v.recovery.detail);
    const detailChanged = detail !== v.recovery.detail;
    if (file === r.source.file && id === r.id && model === r.model && !callsChanged && !hitsChanged && !toolsChanged && !detailChanged) return judged;
    const reply = { ...r, source: { ...r.source, file }, id, toolCalls, advertised, ...(model !== undefined ? { model } : {}) };
    return {
      ...judged,
      findings,
      verdict: { ...v, reply, recovery: detailChanged ? { ...v.recovery, detail } : v.recovery, inspection: hitsChanged ? { ...v.inspection, hits } : v.inspection },
    };
  }
}
