// Writes schema/guard.config.schema.json from src/config/schema.ts (via dist/; run `npm run schema`).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, schemaFileText } from '../dist/config/schema.js';

const target = fileURLToPath(new URL(`../${SCHEMA_FILE}`, import.meta.url));
writeFileSync(target, schemaFileText());
process.stdout.write(`wrote ${SCHEMA_FILE}\n`);
