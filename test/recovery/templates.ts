/**
 * Test helper: replies written as templates, `@` standing for the markup (a call of `bash`),
 * judged by the engine at the default prose ceiling. Not a test file itself.
 */
import { DEFAULT_PROSE_CEILING, recoverReply } from '../../src/recovery/index.js';

/** The recovery outcome of `template` with every `@` replaced by `call` (tools `[bash]`). */
export function outcomeWith(call: string): (template: string) => string {
  return (template) =>
    recoverReply({ text: template.split('@').join(call), advertised: [{ name: 'bash' }], toolCalls: [], truncated: false, idSeed: 't:1' }, { proseCeiling: DEFAULT_PROSE_CEILING }).outcome;
}
