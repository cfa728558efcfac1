/**
 * guard's layers (CONTRIBUTING.md "Layers"), checked by dependency-cruiser in the test suite
 * (test/architecture.test.ts) and by `npx depcruise src`. A layer imports only the layers below it:
 *
 *   cli            commands, flag parsing, UsageError, file I/O of reports and baselines
 *   scan  replay  ceiling     drivers: read inputs, judge, hand verdicts to a report
 *   report         formatters: consume verdicts only
 *   config         guard.config.yaml: loading and validation
 *   verdict        judging a reply, findings, fail policy, suppression, summary, exit code
 *   recovery  inspection      the engines: pure; they import only capture's types and base
 *   capture        capture readers and the normalised reply
 *   base           helpers of every layer (digest, JSON arguments)
 *
 * `src/index.ts` is the library's public face and may import anything.
 */
const LAYERS = {
  base: [],
  capture: ['base'],
  recovery: ['base', 'capture/types.ts'],
  inspection: ['base', 'capture/types.ts'],
  verdict: ['base', 'capture', 'recovery', 'inspection'],
  config: ['base', 'inspection', 'verdict'],
  report: ['base', 'capture', 'verdict'],
  scan: ['base', 'capture', 'verdict', 'report'],
  replay: ['base', 'capture', 'recovery', 'inspection', 'verdict'],
  ceiling: ['base', 'capture', 'recovery', 'verdict'],
  cli: ['base', 'capture', 'recovery', 'inspection', 'verdict', 'config', 'report', 'scan', 'replay', 'ceiling'],
};

const layerRules = Object.entries(LAYERS).map(([layer, below]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer} imports only ${below.length ? below.map((l) => `src/${l}`).join(', ') : 'nothing of guard'} (besides itself)`,
  severity: 'error',
  from: { path: `^src/${layer}/` },
  to: { path: '^src/', pathNot: [`^src/${layer}/`, ...below.map((l) => (l.endsWith('.ts') ? `^src/${l.replace(/\./g, '\\.')}$` : `^src/${l}/`))] },
}));

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'engines-import-capture-types-only',
      comment: 'the engines (recovery, inspection) import nothing of capture but its types',
      severity: 'error',
      from: { path: '^src/(recovery|inspection)/' },
      to: { path: '^src/capture/', pathNot: '^src/capture/types\\.ts$' },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle between modules',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unknown-layer',
      comment: 'every folder of src/ is a layer listed in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/', pathNot: [`^src/(${Object.keys(LAYERS).join('|')})/`, '^src/index\\.ts$'] },
      to: {},
    },
  ],
  options: {
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
  },
};

