/**
 * The registry of markup families the recovery engine reads. Adding a family is one module
 * implementing `Family` (../family.ts) with its cases file beside it (`<id>.cases.yaml`), and one
 * entry here.
 *
 * Precedence: the family whose markup starts first in the text wins; when two families claim the
 * same offset, the earlier entry of this list wins (docs/recovery.md, "Families").
 */

import type { Family } from '../family.js';
import { apriel } from './apriel.js';
import { deepseek } from './deepseek.js';
import { dsml } from './dsml.js';
import { firefunctionV2 } from './firefunction-v2.js';
import { gemma3ToolCode } from './gemma3-tool-code.js';
import { glm } from './glm.js';
import { granite20bFc } from './granite-20b-fc.js';
import { granite } from './granite.js';
import { harmony } from './harmony.js';
import { hermes } from './hermes.js';
import { jamba } from './jamba.js';
import { kimi } from './kimi-k2.js';
import { lfm2 } from './lfm2.js';
import { llama } from './llama.js';
import { llama3Json } from './llama3-json.js';
import { llama4Json } from './llama4-json.js';
import { minimax } from './minimax.js';
import { mistral } from './mistral.js';
import { nemotron } from './nemotron.js';
import { olmo3 } from './olmo3.js';
import { openaiJson } from './openai-json.js';
import { phi4Mini } from './phi4-mini.js';
import { pythonic } from './pythonic.js';
import { qwen3Coder } from './qwen3-coder.js';
import { xlam } from './xlam.js';

/** Every family the engine reads, in tie-break order (when two claim the same offset). */
export const FAMILIES: readonly Family[] = [
  deepseek,
  dsml,
  kimi,
  harmony,
  minimax,
  qwen3Coder,
  glm,
  hermes,
  phi4Mini,
  granite,
  mistral,
  pythonic,
  llama,
  llama4Json,
  firefunctionV2,
  jamba,
  apriel,
  nemotron,
  granite20bFc,
  llama3Json,
  openaiJson,
  xlam,
  lfm2,
  olmo3,
  gemma3ToolCode,
];
