/**
 * JSON Schema (draft 2020-12) of `guard.config.yaml`. The same object validates the file at load
 * time (with Ajv) and is written to `schema/guard.config.schema.json` for editors.
 */
export const CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://guard.dev/schema/guard.config.schema.json',
  title: 'guard configuration',
  type: 'object',
  additionalProperties: false,
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
        mode: { enum: ['off', 'observe', 'enforce'] },
        disabled: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
        actions: {
          type: 'object',
          additionalProperties: { enum: ['block', 'record'] },
        },
        rules: {
          description: 'Custom rules (see docs/rules.md).',
          type: 'array',
          items: { type: 'object' },
        },
      },
    },
    scan: {
      type: 'object',
      additionalProperties: false,
      properties: {
        fail_on: { enum: ['none', 'refused', 'flag', 'block'] },
      },
    },
  },
} as const;
