#!/usr/bin/env node
// Thin launcher: the program lives in dist/cli (built from src/cli by `npm run build`).
import { setFlagsFromString } from 'node:v8';

// V8 tuning for a scan, measured in docs/performance.md ("Start-up" and "V8 flags"), set before
// any module compiles code:
// - WebAssembly (the bash grammar, RE2) on the baseline compiler only: the optimising tier
//   recompiles the grammar's very large lexer function in the background, ~0.5 s of CPU and
//   50 MB per process, and did not pay back even on a 1 GB scan;
// - no inlining in the optimising JavaScript compiler: captures of mixed formats make the hot
//   functions see objects of many shapes, and every deoptimisation recompiled them with their
//   inlined callees (~10% of CPU at 200 MB and at 1 GB, more with --jobs);
// - a heap that grows by 10% past what the last full collection kept, not by V8's default factor
//   (up to 4x for a fast allocator like a scan): 15 MB less at 1 GB with one thread, 70 MB less
//   with two, at no measured CPU cost.
// All are long-standing V8 flags (Node 20 to 24).
setFlagsFromString('--liftoff-only');
setFlagsFromString('--no-turbo-inlining');
setFlagsFromString('--heap-growing-percent=10');

const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
