/** Problem messages never echo capture text: V8's JSON.parse message quotes the first characters
 * of the line (`"ghp_a1B2c3"...`), the head of a token no redaction rule knows cut short. */
import { describe, expect, it } from 'vitest';
import { jsonErrorMessage } from '../../src/base/json.js';
import { ndjson, runGuard } from '../cli/helpers.js';

const TOKEN = 'ghp_a1B2c3d4e5f6g7h8i9j0k1l2m3n4o5p6q7r8s9';

describe('INVALID_JSON messages', () => {
  it('jsonErrorMessage drops the quoted excerpt, keeps the rest', () => {
    let thrown: unknown;
    try {
      JSON.parse(`{"a": ${TOKEN}}`);
    } catch (e) {
      thrown = e;
    }
    expect(jsonErrorMessage(thrown)).toBe("Unexpected token 'g' (the text is not valid JSON)");
    expect(jsonErrorMessage(new SyntaxError('Unexpected end of JSON input'))).toBe('Unexpected end of JSON input');
  });
  it.each([
    ['a JSON Lines file', `${TOKEN}\n{"tools":["bash"],"text":"hi"}\n`],
    ['an SSE stream', `data: ${TOKEN}\n\ndata: [DONE]\n\n`],
  ])('%s: the line is reported, none of the token is written', async (_what, input) => {
    const r = await runGuard(['scan', '--format', 'ndjson', '-'], { stdin: input });
    const err = ndjson(r.stdout).find((x) => x['error']?.code === 'INVALID_JSON')!;
    expect(err['line']).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('a1B2c3');
  });
});
