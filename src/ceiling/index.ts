/**
 * `guard ceiling` as a library: measure a labelled corpus against the prose ceiling, suggest a
 * bound, and render the report (text table and strip plot, JSON, Markdown). Pure: no fs, no
 * process; the CLI (src/cli/commands/ceiling.ts) reads the corpus and the label side files.
 */

export * from './types.js';
export { analyseCeiling, suggestCeiling, SUGGEST_FRACTION, fmt as formatCeiling } from './analyse.js';
export { parseLabelFile, labelFileFor, isLabelFile, LabelLookup, LABEL_FILE_SUFFIX, type LabelFile } from './labels.js';
export { renderStripPlot, plotColumn, PLOT_WIDTH } from './plot.js';
export { renderText, renderTable, renderSummary, renderSuggestion, renderWrong, rowName, rowLocation, TABLE_HEADER } from './table.js';
export { ceilingJson, renderMarkdown, type CeilingJson, type CeilingJsonRow } from './formats.js';
