/**
 * Secret literals: recognising them (for `secret-to-unknown-host`) and masking them in excerpts.
 * Prefixes are the documented key formats of each provider (Anthropic `sk-ant-`, OpenAI `sk-`/
 * `sk-proj-`, GitHub `ghp_`/`gho_`/`ghu_`/`ghs_`/`ghr_`/`github_pat_`, GitLab `glpat-`, AWS
 * `AKIA`/`ASIA`, Google `AIza`, Slack `xox?-`, Stripe `sk_live_`/`rk_live_`, Hugging Face `hf_`,
 * npm `npm_`, PyPI `pypi-`, SendGrid `SG.`), plus PEM private key blocks, JWTs, passwords in URLs
 * and `password=`/`token=`/`secret=` assignments.
 */

/** A secret format and the hosts where sending it is expected. */
export interface SecretPattern {
  kind: string;
  re: RegExp;
  /** Domain suffixes of the key's provider; empty when any host is suspicious. */
  providers: string[];
}

export const SECRET_PATTERNS: readonly SecretPattern[] = [
  { kind: 'anthropic', re: /\bsk-ant-[A-Za-z0-9_-]{8,}/g, providers: ['anthropic.com'] },
  { kind: 'openai', re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, providers: ['openai.com'] },
  { kind: 'github', re: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g, providers: ['github.com', 'githubusercontent.com'] },
  { kind: 'gitlab', re: /\bglpat-[A-Za-z0-9_-]{20,}/g, providers: ['gitlab.com'] },
  { kind: 'aws', re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, providers: ['amazonaws.com'] },
  { kind: 'google', re: /\bAIza[0-9A-Za-z_-]{35}/g, providers: ['googleapis.com', 'google.com'] },
  { kind: 'slack', re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, providers: ['slack.com'] },
  { kind: 'stripe', re: /\b(?:sk|rk)_live_[A-Za-z0-9]{16,}/g, providers: ['stripe.com'] },
  { kind: 'huggingface', re: /\bhf_[A-Za-z0-9]{30,}/g, providers: ['huggingface.co'] },
  { kind: 'npm', re: /\bnpm_[A-Za-z0-9]{36}\b/g, providers: ['npmjs.org', 'npmjs.com'] },
  { kind: 'pypi', re: /\bpypi-[A-Za-z0-9_-]{50,}/g, providers: ['pypi.org'] },
  { kind: 'sendgrid', re: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, providers: ['sendgrid.com'] },
  { kind: 'jwt', re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, providers: [] },
];

const PEM_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@"']+:)([^\s@/"']+)(@)/gi;
const ASSIGNED = /\b((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret)\s*[=:]\s*["']?)([^\s"'&;]{6,})/gi;
const BEARER = /\b(Bearer\s+)([A-Za-z0-9._~+/-]{12,}=*)/g;

/** Masks one secret: keeps a short prefix so the kind stays visible. */
function mask(secret: string): string {
  const keep = Math.min(8, Math.floor(secret.length / 4));
  return secret.slice(0, keep) + '***';
}

/**
 * Masks secrets in a string: provider API keys and tokens, cloud keys, PEM private key blocks,
 * passwords in URLs, `Bearer` tokens and `password=`-style assignments. Returns the masked text;
 * never throws.
 */
export function redactSecrets(text: string): string {
  let out = text.replace(PEM_BLOCK, '-----BEGIN PRIVATE KEY----- *** (redacted)');
  for (const p of SECRET_PATTERNS) out = out.replace(p.re, (m) => mask(m));
  out = out.replace(URL_PASSWORD, (_m, a: string, _pw: string, at: string) => `${a}***${at}`);
  out = out.replace(BEARER, (_m, a: string, t: string) => a + mask(t));
  out = out.replace(ASSIGNED, (m, a: string, v: string) => (v.endsWith('***') ? m : a + mask(v)));
  return out;
}

/** The secret literals found in a text, with their formats. */
export function findSecrets(text: string): Array<{ value: string; pattern: SecretPattern }> {
  const out: Array<{ value: string; pattern: SecretPattern }> = [];
  for (const p of SECRET_PATTERNS) for (const m of text.matchAll(p.re)) out.push({ value: m[0], pattern: p });
  // An Anthropic key also matches the generic OpenAI shape; keep the specific one.
  return out.filter((s) => !(s.pattern.kind === 'openai' && s.value.startsWith('sk-ant-')));
}
