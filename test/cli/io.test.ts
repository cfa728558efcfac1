import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { spinnerWanted, type CliIO } from '../../src/cli/io.js';

function io(stderr: { isTTY?: boolean; columns?: number }, env: Record<string, string> = {}): CliIO {
  return { stdout: new PassThrough(), stderr: Object.assign(new PassThrough(), stderr), stdin: new PassThrough(), env, cwd: '/' };
}

describe('spinnerWanted', () => {
  it('shows the spinner only on a sized terminal outside CI', () => {
    expect(spinnerWanted(io({ isTTY: true, columns: 120 }), false)).toBe(true);
    // bug: a terminal of 0 columns made ora redraw without end (760 MB in 10 minutes)
    expect(spinnerWanted(io({ isTTY: true, columns: 0 }), false)).toBe(false);
    expect(spinnerWanted(io({ isTTY: true }), false)).toBe(false);
    expect(spinnerWanted(io({ isTTY: false, columns: 120 }), false)).toBe(false);
    expect(spinnerWanted(io({ isTTY: true, columns: 120 }, { CI: 'true' }), false)).toBe(false);
    expect(spinnerWanted(io({ isTTY: true, columns: 120 }, { TERM: 'dumb' }), false)).toBe(false);
    expect(spinnerWanted(io({ isTTY: true, columns: 120 }), true)).toBe(false);
  });
});
