import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { FlowScoutError } from '../errors/index.js';

/**
 * One column table per stored entity: each field of a row type names its SQL column, how it is
 * written and the zod schema its stored value must meet. The SELECT list, the INSERT statement,
 * the write parameters and the parsed row all come from the table, so a column is spelled once.
 * Values are parsed on read, never cast: a row that does not parse (bad JSON, a wrong-typed field)
 * is a STORE_ERROR naming the store file, the table, the row and the JSON path.
 */

/**
 * How a value is written: `raw` as it is (ids, numbers, hashes, statuses); `text` through the
 * secret scrub; `json` as scrubbed JSON text; `blob` as scrubbed JSON, deflated. SQL NULL reads as
 * absent.
 */
export type ColumnKind = 'raw' | 'text' | 'json' | 'blob';

/** One column: its SQL name, how it is written, what it must hold. */
export interface Column<T> {
  sql: string;
  kind: ColumnKind;
  schema: z.ZodType<T>;
}

/** A column for every field of `Row` (optional fields included), typed by the field. */
export type Columns<Row> = { [K in keyof Required<Row>]: Column<Row[K]> };

/** A stored entity: its table, the key columns that name a row, and its columns. */
export interface Table<Row> {
  name: string;
  /** SQL columns that identify a row (named in errors); they need not be fields of `Row`. */
  key: readonly string[];
  columns: Columns<Row>;
}

export const col = <T>(sql: string, kind: ColumnKind, schema: z.ZodType<T>): Column<T> => ({ sql, kind, schema });

const entries = <Row>(t: Table<Row>) => Object.entries(t.columns) as Array<[string, Column<unknown>]>;

/** The columns to SELECT: the key columns, then every column of the table but `omit`. */
export function selectList<Row>(t: Table<Row>, omit: ReadonlyArray<keyof Row> = []): string {
  const cols = entries(t)
    .filter(([k]) => !omit.includes(k as keyof Row))
    .map(([, c]) => c.sql);
  return [...new Set([...t.key, ...cols])].join(', ');
}

/** `INSERT INTO <table> (…) VALUES (@…)` over the table's columns (but `omit`) and `extra` ones. */
export function insertSql<Row>(
  t: Table<Row>,
  opts: { verb?: string; omit?: ReadonlyArray<keyof Row>; extra?: readonly string[] } = {},
): string {
  const cols = [
    ...entries(t)
      .filter(([k]) => !(opts.omit ?? []).includes(k as keyof Row))
      .map(([, c]) => c.sql),
    ...(opts.extra ?? []),
  ];
  return `${opts.verb ?? 'INSERT'} INTO ${t.name} (${cols.join(', ')}) VALUES (${cols.map((c) => `@${c}`).join(', ')})`;
}

/** One value as written to its column. */
export function encodeValue(c: Column<unknown>, v: unknown, scrub: (text: string) => string): unknown {
  if (v === undefined || v === null) return null;
  switch (c.kind) {
    case 'raw':
      return v;
    case 'text':
      return scrub(String(v));
    case 'json':
      return scrub(JSON.stringify(v));
    case 'blob':
      return deflateRawSync(Buffer.from(scrub(JSON.stringify(v)), 'utf8'));
  }
}

/** The named parameters of a row (keyed by SQL column) for `insertSql`. */
export function encodeRow<Row>(
  t: Table<Row>,
  row: Partial<Row>,
  scrub: (text: string) => string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, c] of entries(t)) out[c.sql] = encodeValue(c, (row as Record<string, unknown>)[k], scrub);
  return out;
}

/** Where a stored row is read from (for the error of a row that does not parse). */
export interface ReadContext {
  file: string;
}

/** A row read back as `Row`: every column present in `raw` parsed with its schema (absent fields left out). */
export function decodeRow<Row>(t: Table<Row>, raw: Record<string, unknown>, ctx: ReadContext): Row {
  const out: Record<string, unknown> = {};
  for (const [k, c] of entries(t)) {
    if (!(c.sql in raw)) continue;
    const v = decodeValue(t, c, raw, ctx);
    if (v !== undefined) out[k] = v;
  }
  return out as Row;
}

/** One column of a stored row, parsed. */
export function decodeColumn<Row, K extends keyof Row>(
  t: Table<Row>,
  field: K,
  raw: Record<string, unknown>,
  ctx: ReadContext,
): Row[K] {
  return decodeValue(t, t.columns[field] as Column<unknown>, raw, ctx) as Row[K];
}

function decodeValue<Row>(t: Table<Row>, c: Column<unknown>, raw: Record<string, unknown>, ctx: ReadContext): unknown {
  const stored = raw[c.sql];
  let value: unknown = stored === null ? undefined : stored;
  if (value !== undefined && (c.kind === 'json' || c.kind === 'blob')) {
    try {
      const textOf = c.kind === 'blob' ? inflateRawSync(value as Buffer).toString('utf8') : (value as string);
      value = JSON.parse(textOf);
    } catch (e) {
      throw storedRowError({
        file: ctx.file,
        table: t.name,
        id: rowId(t, raw),
        path: `$.${c.sql}`,
        problem: `it is not ${c.kind === 'blob' ? 'deflated ' : ''}JSON (${e instanceof Error ? e.message : String(e)})`,
      });
    }
  }
  const parsed = c.schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw storedRowError({
    file: ctx.file,
    table: t.name,
    id: rowId(t, raw),
    path: jsonPath(c.sql, issue.path),
    problem: issue.message,
  });
}

const rowId = <Row>(t: Table<Row>, raw: Record<string, unknown>): string =>
  t.key.map((k) => String(raw[k] ?? '?')).join('/');

/** `$.<column>` followed by a zod issue's path. */
export function jsonPath(column: string, path: ReadonlyArray<PropertyKey>): string {
  let out = `$.${column}`;
  for (const p of path)
    out +=
      typeof p === 'number'
        ? `[${p}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(p))
          ? `.${String(p)}`
          : `[${JSON.stringify(String(p))}]`;
  return out;
}

/**
 * The error of a stored row that does not parse: STORE_ERROR naming the store file, the table, the
 * row and the JSON path (`$.<column>…`) that failed. Used by the store's reads and by readers that
 * parse a stored value further (a resumed run's settings).
 */
export function storedRowError(at: {
  file: string;
  table: string;
  id: string;
  path: string;
  problem: string;
}): FlowScoutError {
  return new FlowScoutError({
    code: 'STORE_ERROR',
    message: `the store ${at.file} has a row that does not parse: table ${at.table}, row ${at.id}, at ${at.path}: ${at.problem}`,
    hint: 'The store was written by another FlowScout version or edited by hand. Open it with the FlowScout that wrote it, restore it from a copy, or start a new store with --db <new file>.',
    location: { file: at.file, path: at.path },
  });
}
