/**
 * Redaction from a maintained ruleset (gitleaks' rules, src/base/secret-rules.json) in every string
 * guard writes: excerpts and problem messages. Each case was shown in full before.
 */
import { describe, expect, it } from 'vitest';
import SECRET_RULES from '../../src/base/secret-rules.json' with { type: 'json' };
import { redactSecrets } from '../../src/base/redact.js';
import { runGuard } from '../cli/helpers.js';

describe('redaction', () => {
  it.each([
    ['AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI/K7MDENG'],
    ['Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
    ['token xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx', 'abcdefghijklmnopqrstuvwx'],
    ['eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U', 'dozjgNryP4J3jVmNHl0w5N'],
    ['stripe key sk_test_abcdefghijklmnopqrstuvwx1234', 'abcdefghijklmnopqrstuvwx1234'],
    ['postgres://user:s3cr3tpw@db:5432/x', 's3cr3tpw'],
  ])('masks %s', (text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain('***');
  });
  it.each(['rm -rf /tmp/build && ls -la', 'curl https://api.example.com/v1/items', 'git commit -m "fix token refresh"'])('leaves %s alone', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
  it('uses the gitleaks rule list, with its source and licence recorded', () => {
    expect(SECRET_RULES.rules.length).toBeGreaterThan(200);
    expect(SECRET_RULES.source).toMatch(/^https:\/\/github\.com\/gitleaks\/gitleaks\/blob\/[0-9a-f]{40}\/config\/gitleaks\.toml$/);
    expect(SECRET_RULES.license).toMatch(/MIT/);
  });
  it('masks a token quoted by an SSE error event in every format', async () => {
    const stdin = 'data: {"error":{"message":"upstream said: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789 is invalid","type":"x"}}\n\n';
    for (const f of ['ndjson', 'json', 'sarif', 'junit', 'github', 'text']) {
      const r = await runGuard(['scan', '-f', f, '-'], { stdin });
      expect(`${r.stdout}${r.stderr}`, f).not.toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
    }
    const raw = await runGuard(['scan', '-f', 'ndjson', '--no-redact', '-'], { stdin });
    expect(raw.stdout).toContain('ghp_abcdefghijklmnopqrstuvwxyz0123456789');
  });
});
