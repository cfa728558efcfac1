/**
 * JSON Schema (draft 2020-12) of `guard.config.yaml`. The same object validates the file at load
 * time (with Ajv) and is written to `schema/guard.config.schema.json` for editors.
 */
import { FAIL_ON_LEVELS } from '../verdict/findings.js';

export const CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://guard.dev/schema/guard.config.schema.json',
  title: 'guard configuration',
  type: 'object',
  additionalProperties: false,
  $defs: {
    customRule: {
      description: 'An operator rule: a regular expression (RE2 syntax) on command text or paths, or an argv prefix.',
      type: 'object',
      additionalProperties: false,
      required: ['id', 'description'],
      properties: {
        id: { description: 'Stable kebab-case id, unique, not a built-in id.', type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 },
        name: { description: 'Short display name (default: the id); unique.', type: 'string', minLength: 1, pattern: '\\S' },
        description: { description: 'One line, shown with hits.', type: 'string', minLength: 1, pattern: '\\S' },
        help: { description: 'What to check and what to do about a hit.', type: 'string' },
        category: { description: 'Default: custom.', type: 'string', minLength: 1 },
        action: { description: 'What a hit does under enforce (default: record).', enum: ['block', 'record'] },
        tools: {
          description: 'Only calls of these tools (case-insensitive); default: every tool.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          minItems: 1,
          uniqueItems: true,
        },
        command: {
          description: 'RE2 regular expression on each command-bearing value as decoded and on each simple command after normalisation.',
          type: 'string',
          minLength: 1,
          maxLength: 1000,
        },
        argv_prefix: {
          description: 'Words a simple command (at any depth, wrappers stripped) starts with; the first is compared with the command basename.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          minItems: 1,
          maxItems: 20,
        },
        path: {
          description: 'RE2 regular expression on a path a call writes or reads (normalised, ~ for home).',
          type: 'string',
          minLength: 1,
          maxLength: 1000,
        },
        flags: { description: 'Pattern flags: any of i, m, s.', type: 'string', pattern: '^[ims]*$' },
        examples: {
          description: 'Checked when the configuration loads: a failing example refuses the file.',
          type: 'object',
          additionalProperties: false,
          properties: {
            match: { type: 'array', items: { type: 'string' }, maxItems: 50 },
            not_match: { type: 'array', items: { type: 'string' }, maxItems: 50 },
          },
        },
      },
      anyOf: [
        { required: ['command'], properties: { command: true } },
        { required: ['argv_prefix'], properties: { argv_prefix: true } },
        { required: ['path'], properties: { path: true } },
      ],
    },
  },
  properties: {
    recovery: {
      type: 'object',
      additionalProperties: false,
      properties: {
        prose_ceiling: {
          description: 'Largest prose ratio (0..1) at which a convicted reply is still recovered.',
          type: 'number',
          minimum: 0,
          maximum: 1,
        },
        tools: {
          description: 'Tool names treated as advertised when a capture does not record them.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          uniqueItems: true,
        },
      },
    },
    inspection: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: {
          description: 'off: nothing is inspected; observe (default): hits are reported, nothing is blocked; enforce: a hit graded block blocks the reply.',
          enum: ['off', 'observe', 'enforce'],
        },
        disabled: {
          description: 'Rule ids (built-in or custom) switched off.',
          type: 'array',
          items: { type: 'string', minLength: 1 },
          uniqueItems: true,
        },
        actions: {
          description: 'Re-grading: rule id to block or record.',
          type: 'object',
          additionalProperties: { enum: ['block', 'record'] },
        },
        rules: {
          description: 'Custom rules, added to the built-ins (see docs/rules.md).',
          type: 'array',
          maxItems: 100,
          items: { $ref: '#/$defs/customRule' },
        },
      },
    },
    scan: {
      type: 'object',
      additionalProperties: false,
      properties: {
        fail_on: { enum: [...FAIL_ON_LEVELS] },
      },
    },
  },
} as const;

/** Where the schema ships in the package, relative to the package root. */
export const SCHEMA_FILE = 'schema/guard.config.schema.json';

/**
 * The text of {@link SCHEMA_FILE}: {@link CONFIG_SCHEMA} as JSON, two-space indented, with a
 * final newline. `npm run schema` writes it; test/inspection/config.test.ts fails when the
 * shipped file differs.
 */
export function schemaFileText(): string {
  return `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`;
}
