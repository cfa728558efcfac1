/**
 * SQL statements read with a maintained parser: node-sql-parser (https://github.com/taozhi8833998/node-sql-parser,
 * Apache-2.0), its PostgreSQL, MySQL and SQLite grammars. A statement is destructive when it drops
 * a table, database or schema, truncates, or deletes or updates without a WHERE clause. A
 * statement no grammar parses is still looked at: when it opens with one of those keywords it is
 * reported as found by the raw fallback. The grammars are loaded on first use (only commands of DB
 * clients and database tools carry SQL).
 */
import { createRequire } from 'node:module';

/** What the statements of one SQL text do. */
export interface SqlFacts {
  /** DROP TABLE / DATABASE / SCHEMA / VIEW … */
  drops: 'parsed' | 'raw' | null;
  /** TRUNCATE, or DELETE / UPDATE without WHERE. */
  massDeletes: 'parsed' | 'raw' | null;
}

interface SqlAst {
  type?: string;
  keyword?: string;
  where?: unknown;
}
interface SqlParser {
  astify(sql: string, opt?: { database?: string }): SqlAst | SqlAst[];
}

const require = createRequire(import.meta.url);
const DIALECTS = ['postgresql', 'mysql', 'sqlite'] as const;
let parsers: { db: string; parser: SqlParser }[] | null = null;

function load(): { db: string; parser: SqlParser }[] {
  if (parsers) return parsers;
  parsers = [];
  for (const db of DIALECTS) {
    try {
      const mod = require(`node-sql-parser/build/${db}`) as { Parser: new () => SqlParser };
      parsers.push({ db, parser: new mod.Parser() });
    } catch {
      // a dialect that does not load leaves the others (and the raw reading)
    }
  }
  return parsers;
}

/** Longest SQL text parsed; longer text is read by the raw patterns only. */
const MAX_SQL = 64 * 1024;
const RAW_DROP = /^\s*DROP\s+(?:TABLE|DATABASE|SCHEMA|VIEW|MATERIALIZED\s+VIEW|OWNED)\b/i;
const RAW_MASS = /^\s*TRUNCATE\b|^\s*(?:DELETE\s+FROM|UPDATE)\b(?![\s\S]*\bWHERE\b)/i;

/** The statements of a text, split at `;` outside quotes and comments. */
export function splitSql(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let q: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (q) {
      cur += c;
      if (c === q) q = null;
      continue;
    }
    if (c === "'" || c === '"' || c === '`') q = c;
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl;
      cur += '\n';
      continue;
    }
    if (c === ';') {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function classify(ast: SqlAst, facts: SqlFacts): void {
  const type = String(ast.type ?? '').toLowerCase();
  const kw = String(ast.keyword ?? '').toLowerCase();
  if (type === 'drop' && /^(?:table|database|schema|view)$/.test(kw)) facts.drops = 'parsed';
  if (type === 'truncate' || ((type === 'delete' || type === 'update') && (ast.where === null || ast.where === undefined))) facts.massDeletes = 'parsed';
}

/**
 * What the statements of a SQL text do (see {@link SqlFacts}). Each statement is parsed by the
 * first grammar that accepts it; one none accepts is matched by its opening keywords (`raw`).
 * Never throws.
 */
export function sqlFacts(sql: string): SqlFacts {
  const facts: SqlFacts = { drops: null, massDeletes: null };
  if (!/\b(?:DROP|TRUNCATE|DELETE|UPDATE)\b/i.test(sql)) return facts;
  for (const stmt of splitSql(sql.slice(0, MAX_SQL))) {
    if (!/\b(?:DROP|TRUNCATE|DELETE|UPDATE)\b/i.test(stmt)) continue;
    let parsed = false;
    for (const { db, parser } of load()) {
      try {
        const ast = parser.astify(stmt, { database: db });
        for (const a of Array.isArray(ast) ? ast : [ast]) classify(a, facts);
        parsed = true;
        break;
      } catch {
        // not this dialect
      }
    }
    if (!parsed) {
      if (RAW_DROP.test(stmt)) facts.drops ??= 'raw';
      if (RAW_MASS.test(stmt)) facts.massDeletes ??= 'raw';
    }
  }
  return facts;
}
