/**
 * The registry of markup families the recovery engine reads. Adding a family is one module
 * implementing `Family` (../family.ts) with its cases file beside it (`<id>.cases.yaml`), and one
 * entry here.
 *
 * Precedence: the family whose markup starts first in the text wins; when two families claim the
 * same offset, the earlier entry of this list wins (docs/recovery.md, "Families").
 */

import type { Family } from '../family.js';
import { functionaryV32 } from './functionary-v3.2.js';
import { kimiK3 } from './kimi-k3.js';
import { minicpm } from './minicpm.js';
import { minimaxM3 } from './minimax-m3.js';
import { seedOss } from './seed-oss.js';
import { step3 } from './step3.js';
import { solarOpen } from './solar-open.js';
import { longcat } from './longcat.js';
import { internlm } from './internlm.js';
import { hunyuan } from './hunyuan.js';
import { gigachat } from './gigachat.js';
import { dots } from './dots.js';
import { commandR7b } from './command-r7b.js';
import { commandR } from './command-r.js';
import { apertus } from './apertus.js';
import { deepseek } from './deepseek.js';
import { dsml } from './dsml.js';
import { functionGemma } from './functiongemma.js';
import { gemma4 } from './gemma4.js';
import { glm } from './glm.js';
import { granite } from './granite.js';
import { harmony } from './harmony.js';
import { hermes } from './hermes.js';
import { kimi } from './kimi-k2.js';
import { llama } from './llama.js';
import { minimax } from './minimax.js';
import { mistral } from './mistral.js';
import { qwen3Coder } from './qwen3-coder.js';

/** Every family the engine reads, in tie-break order (when two claim the same offset). */
export const FAMILIES: readonly Family[] = [
  step3,
  deepseek,
  dsml,
  kimi,
  harmony,
  minimaxM3,
  minimax,
  seedOss,
  qwen3Coder,
  hunyuan,
  glm,
  hermes,
  granite,
  mistral,
  llama,
  gemma4,
  functionGemma,
  commandR,
  commandR7b,
  internlm,
  longcat,
  apertus,
  gigachat,
  solarOpen,
  dots,
  kimiK3,
  minicpm,
  functionaryV32,
];
