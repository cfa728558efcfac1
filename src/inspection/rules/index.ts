/**
 * The registry of built-in rules. Its order is the order of hits in every report (by category, as
 * in docs/rules.md "Rule origins"): destructive-fs, destructive-host, remote-exec, persistence / exfiltration /
 * privilege, credential access, discovery, exfiltration over other channels, defense evasion, execution,
 * Windows, vcs- / cloud- / db-destructive, reverse shells, then obfuscation. A new rule goes into
 * the array of its category's module (one module per group, each with its `*.vectors.yaml` beside
 * it); a new group is one more module and one more entry here.
 */
import type { Rule } from '../rule.js';
import { DESTRUCTIVE_RULES } from './destructive.js';
import { HOST_RULES } from './host.js';
import { NETWORK_RULES, OBFUSCATION_RULES } from './network.js';
import { OPS_RULES } from './ops.js';
import { PERSISTENCE_RULES } from './persistence.js';
import { DECODE_RULES, REMOTE_RULES } from './remote.js';
import { PRIVILEGE_RULES } from './privilege.js';
import { CREDENTIAL_IDIOM_RULES, CREDENTIAL_RULES } from './credentials.js';
import { EXFIL_RULES } from './exfil.js';
import { DISCOVERY_RULES } from './discovery.js';
import { INGRESS_RULES } from './ingress.js';
import { EVASION_IDIOM_RULES, EVASION_RULES } from './evasion.js';
import { EXECUTION_RULES } from './execution.js';
import { SESSION_RULES } from './session.js';
import { WINDOWS_RULES } from './windows.js';

/** The rule groups in report order. */
const GROUPS: readonly (readonly Rule[])[] = [
  DESTRUCTIVE_RULES,
  HOST_RULES,
  REMOTE_RULES,
  INGRESS_RULES,
  PERSISTENCE_RULES,
  PRIVILEGE_RULES,
  CREDENTIAL_RULES,
  CREDENTIAL_IDIOM_RULES,
  DISCOVERY_RULES,
  EXFIL_RULES,
  EVASION_RULES,
  EVASION_IDIOM_RULES,
  EXECUTION_RULES,
  SESSION_RULES,
  WINDOWS_RULES,
  OPS_RULES,
  NETWORK_RULES,
  DECODE_RULES,
  OBFUSCATION_RULES,
];

/** Built-in rules, frozen, in registry order. */
export const BUILTIN_RULES: readonly Rule[] = Object.freeze(GROUPS.flat().map((r) => Object.freeze(r)));
