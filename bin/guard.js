#!/usr/bin/env node
// Thin launcher: the program lives in dist/cli (built from src/cli by `npm run build`).
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
