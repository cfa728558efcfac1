/** Test helper types: a call to render and a family grammar that renders it. */

export interface Call {
  name: string;
  args: Record<string, unknown>;
}

export interface Rendered {
  text: string;
  /** UTF-16 index where an optional trailing stop token starts (the text's length when none). A
   * cut before this index leaves the envelope incomplete. */
  requiredEnd: number;
  /** The label the engine reports for this text when it differs from the grammar's (a rendering
   * whose calls have no parameters reads the same in another family, which keeps its label). */
  label?: string;
}

export interface Grammar {
  /** The family label the engine reports. */
  label: string;
  /** How values are written: `json` (the whole arguments object as JSON) or `params` (one element
   * per parameter: strings raw, everything else as JSON, typed back from the schema or a flag). */
  values: 'json' | 'params';
  /** Renders the calls; null when the grammar has no way to put several calls in one reply. */
  render(calls: Call[]): Rendered | null;
  /** True when a parameter value, as the grammar writes it, holds a tag of the dialect itself, so
   * no reader can tell where it ends (the engine must refuse, never cut it short). Only for
   * `params` grammars. */
  ambiguous?(value: unknown): boolean;
  /** When set, tool names and parameter names must pass it (pythonic grammars: Python identifiers). */
  identifiers?(name: string): boolean;
  /** True when the rendering has no marker, so the call alone is its envelope (a bare pythonic list). */
  bare?: boolean;
}
