#!/usr/bin/env node
// Thin launcher: the program lives in dist/cli (built from src/cli by `npm run build`).
import { setFlagsFromString } from 'node:v8';

// WebAssembly (the bash grammar, RE2) runs on V8's baseline compiler only: the optimising tier
// recompiles the grammar's very large lexer function in the background, which costs about
// 0.5 s of CPU and 50 MB of memory per process and did not pay back even on a 200 MB scan
// (docs/performance.md, "Start-up"). Set before any module compiles WebAssembly.
setFlagsFromString('--liftoff-only');

const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
