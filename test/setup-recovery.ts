/**
 * Vitest setup (vitest.config.ts `setupFiles`): loads the Python grammar of the pythonic tool-call
 * families before every test file, as the verdict layer does before judging (src/verdict/engines.ts
 * createJudge), so recoverReply reads pythonic calls in the tests that call it directly.
 * test/recovery/python.test.ts checks the engine without it, in a process of its own.
 */
import { initRecovery } from '../src/recovery/index.js';

await initRecovery();
