#!/usr/bin/env node
// Builds the npm package guard publishes (`npm run pack`): a staging folder build/package with
// only what guard loads, packed with `npm pack` into build/.
//
// - bin/, dist/ (without source maps and declaration maps), schema/, README.md, LICENSE (when
//   present) and a package.json without scripts or devDependencies;
// - the tree-sitter grammars as bundled dependencies reduced to their WebAssembly files: guard
//   loads `tree-sitter-<lang>/tree-sitter-<lang>.wasm` with web-tree-sitter, never the native
//   binding, so the packages' prebuilt binaries, C sources and `node-gyp-build` install script
//   (18 MB, and an install-script warning on every install) are left out. A bundled copy has no
//   install script and no binding.gyp, so npm runs nothing for it.
//
// Usage: node scripts/pack.mjs [--dry-run]   (after npm run build)

import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'build');
const STAGE = join(OUT, 'package');
const require = createRequire(join(ROOT, 'package.json'));
const dryRun = process.argv.includes('--dry-run');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) {
  console.error('pack: dist/ is missing: run npm run build first');
  process.exit(2);
}

rmSync(STAGE, { recursive: true, force: true });
mkdirSync(STAGE, { recursive: true });
const copy = (rel, filter) => cpSync(join(ROOT, rel), join(STAGE, rel), { recursive: true, filter });
copy('bin');
copy('schema');
// source maps point at src/, which is not shipped
copy('dist', (src) => !src.endsWith('.map'));
for (const f of ['README.md', 'LICENSE', 'CHANGELOG.md']) if (existsSync(join(ROOT, f))) copy(f);

/** The tree-sitter grammars among the dependencies: bundled as their .wasm files only. */
const grammars = Object.keys(pkg.dependencies ?? {}).filter((name) => /^tree-sitter-[a-z0-9-]+$/.test(name));
for (const name of grammars) {
  const dir = dirname(require.resolve(`${name}/package.json`));
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const target = join(STAGE, 'node_modules', name);
  mkdirSync(target, { recursive: true });
  const wasm = readdirSync(dir).filter((f) => f.endsWith('.wasm'));
  if (wasm.length === 0) throw new Error(`${name} has no .wasm file`);
  for (const f of [...wasm, ...readdirSync(dir).filter((f) => /^LICENSE/i.test(f))]) cpSync(join(dir, f), join(target, f));
  const reduced = {
    name,
    version: meta.version,
    description: `${meta.description ?? name} (WebAssembly build only, bundled by ${pkg.name})`,
    license: meta.license,
    repository: meta.repository,
    files: wasm,
  };
  writeFileSync(join(target, 'package.json'), `${JSON.stringify(reduced, null, 2)}\n`);
}

const shipped = {
  name: pkg.name,
  version: pkg.version,
  description: pkg.description,
  keywords: pkg.keywords,
  license: pkg.license,
  homepage: pkg.homepage,
  repository: pkg.repository,
  bugs: pkg.bugs,
  type: pkg.type,
  bin: pkg.bin,
  main: pkg.main,
  types: pkg.types,
  exports: pkg.exports,
  engines: pkg.engines,
  dependencies: pkg.dependencies,
  bundleDependencies: grammars,
};
writeFileSync(join(STAGE, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);

const args = ['pack', STAGE, '--pack-destination', OUT, ...(dryRun ? ['--dry-run'] : []), '--json'];
const result = JSON.parse(execFileSync('npm', args, { cwd: ROOT, encoding: 'utf8' }))[0];
const mb = (n) => `${(n / 1e6).toFixed(2)} MB`;
console.log(`${result.filename}: ${result.entryCount} files, ${mb(result.size)} packed, ${mb(result.unpackedSize)} unpacked${dryRun ? ' (dry run)' : ` in ${OUT}`}`);
console.log(`bundled grammars (wasm only): ${grammars.join(', ') || 'none'}`);
