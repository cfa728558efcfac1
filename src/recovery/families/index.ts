/**
 * The registry of markup families the recovery engine reads. Adding a family is one module
 * implementing `Family` (../family.ts) with its cases file beside it (`<id>.cases.yaml`), and one
 * entry here.
 *
 * Precedence: the family whose markup starts first in the text wins; when two families claim the
 * same offset, the earlier entry of this list wins (docs/recovery.md, "Families").
 */

import type { Family } from '../family.js';
import { apertus } from './apertus.js';
import { apriel } from './apriel.js';
import { commandR } from './command-r.js';
import { commandR7b } from './command-r7b.js';
import { cwm } from './cwm.js';
import { deepseek } from './deepseek.js';
import { dots } from './dots.js';
import { dsml } from './dsml.js';
import { firefunctionV2 } from './firefunction-v2.js';
import { functionaryV32 } from './functionary-v3.2.js';
import { functionGemma } from './functiongemma.js';
import { gemma3ToolCode } from './gemma3-tool-code.js';
import { gemma4 } from './gemma4.js';
import { gigachat } from './gigachat.js';
import { glm } from './glm.js';
import { granite } from './granite.js';
import { granite20bFc } from './granite-20b-fc.js';
import { harmony } from './harmony.js';
import { harmonyStripped } from './harmony-stripped.js';
import { hermes } from './hermes.js';
import { hunyuan } from './hunyuan.js';
import { hyperclovax } from './hyperclovax.js';
import { inkling } from './inkling.js';
import { internlm } from './internlm.js';
import { jamba } from './jamba.js';
import { k2Horizon } from './k2-horizon.js';
import { kimi } from './kimi-k2.js';
import { kimiK3 } from './kimi-k3.js';
import { langchainJsonBlob } from './langchain-json-blob.js';
import { lfm2 } from './lfm2.js';
import { llama } from './llama.js';
import { llama3Json } from './llama3-json.js';
import { llama4Json } from './llama4-json.js';
import { longcat } from './longcat.js';
import { minicpm } from './minicpm.js';
import { minimax } from './minimax.js';
import { minimaxM1 } from './minimax-m1.js';
import { minimaxM3 } from './minimax-m3.js';
import { mistral } from './mistral.js';
import { museGlimmer } from './muse-glimmer.js';
import { nemotron } from './nemotron.js';
import { olmo3 } from './olmo3.js';
import { openaiJson } from './openai-json.js';
import { phi4Mini } from './phi4-mini.js';
import { plamo3 } from './plamo3.js';
import { pythonic } from './pythonic.js';
import { qwen3Coder } from './qwen3-coder.js';
import { qwenAgent } from './qwen-agent.js';
import { rwkv } from './rwkv.js';
import { seedOss } from './seed-oss.js';
import { solarOpen } from './solar-open.js';
import { step3 } from './step3.js';
import { stepAudio2 } from './step-audio2.js';
import { telechat4 } from './telechat4.js';
import { xlam } from './xlam.js';

/** Every family the engine reads, in tie-break order (when two claim the same offset). */
export const FAMILIES: readonly Family[] = [
  step3,
  deepseek,
  dsml,
  kimi,
  // before harmony: ATEM messages open with <|start|>assistant too, and a cut one fails in both readers
  museGlimmer,
  harmony,
  minimaxM3,
  minimax,
  seedOss,
  qwen3Coder,
  hunyuan,
  // before glm and hermes: MiniCPM-V's undecoded `<tool_call>\n{` (a literal backslash-n) is no GLM tool name
  minicpm,
  // before glm: TeleChat4 claims a text only where one of its blocks shows (`NAME{` or `NAME<param_key>`),
  // and a cut one fails in both readers; a bare-name block alone stays GLM's
  telechat4,
  // before glm: a cut Step-Audio 2 block (`<tool_call>function\n…`) fails in both readers, and its label wins
  stepAudio2,
  glm,
  hermes,
  phi4Mini,
  granite,
  mistral,
  pythonic,
  llama,
  llama4Json,
  firefunctionV2,
  minimaxM1,
  jamba,
  apriel,
  nemotron,
  granite20bFc,
  gemma4,
  functionGemma,
  langchainJsonBlob,
  rwkv,
  commandR,
  commandR7b,
  internlm,
  longcat,
  apertus,
  gigachat,
  solarOpen,
  dots,
  cwm,
  kimiK3,
  k2Horizon,
  inkling,
  functionaryV32,
  qwenAgent,
  llama3Json,
  openaiJson,
  xlam,
  lfm2,
  olmo3,
  plamo3,
  hyperclovax,
  gemma3ToolCode,
  harmonyStripped,
];
