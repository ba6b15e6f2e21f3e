// Every statement Drizzle sends to PGlite, as one protocol message and, once seen, a named
// prepared statement. PGlite's own `query` makes six calls into its WebAssembly backend (Parse,
// Describe, Bind, Describe, Execute, Sync: the first Describe to learn the parameter types) and
// parses and plans the text every time: about 0.7 ms for the settle+claim CTE on a 2-core VM. A
// statement parsed once under a name and then run as one Bind/Describe/Execute/Sync message takes
// about 0.17 ms (README, Performance).
//
// The result is what PGlite's `query` returns (its own result parser, with the client's parsers).
// Parameters go as text, which PostgreSQL casts to the type it infers, as PGlite would have after
// its Describe: only strings, numbers, booleans, bigints, Dates and nulls take this path; anything
// else (an object, an array, a Blob) or any query option but the row mode goes to PGlite's `query`.
// Statements inside a transaction go to PGlite's `query` (the transaction holds the lock).
// PostgreSQL is not involved: node-postgres sends its own protocol, and a named statement there is
// per connection, which a pooler such as PgBouncer in transaction mode does not keep.
import { parse, protocol, type PGlite, type QueryOptions, type Results } from '@electric-sql/pglite';
import { fillPlaceholders, sql, type Placeholder, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Database } from './database';

/** A statement's values, or placeholders for them (what `compiledStatement`'s builder is given). */
export type Slots<V> = { [K in keyof V]: V[K] | Placeholder };

/**
 * A hand-written statement whose shape does not depend on its values, built once with
 * placeholders and then only filled in: on PGlite, the text Drizzle would build each time (about
 * 0.2 ms on a 2-core VM, on the decision path) is made once. `build` must use every value only as
 * a parameter; `keys` names them all. Elsewhere (a transaction, PostgreSQL) it is built with the
 * values and run by `db.execute`.
 */
export function compiledStatement<V extends Record<string, unknown>>(
  keys: readonly (keyof V & string)[],
  build: (db: Database, values: Slots<V>) => SQL,
) {
  let compiled: { sql: string; params: unknown[] } | undefined;
  return async function rows<T>(db: Database, values: V): Promise<T[]> {
    const direct = directQueries.get(db);
    if (!direct) return ((await db.execute(build(db, values))) as unknown as { rows: T[] }).rows;
    compiled ??= dialect.sqlToQuery(
      build(db, Object.fromEntries(keys.map((key) => [key, sql.placeholder(key)])) as Slots<V>),
    );
    return (await direct<T>(compiled.sql, fillPlaceholders(compiled.params, values), { rowMode: 'object' })).rows;
  };
}

/** Distinct statement texts given a name; later ones run as the unnamed statement (still one message). */
export const MAX_NAMED_STATEMENTS = 128;

/** SQLSTATE 26000: the backend does not know the name (the statement was deallocated). */
const INVALID_STATEMENT_NAME = '26000';
/** SQLSTATE 42P05: the backend knows the name already (its Parse succeeded in a message whose Bind then failed). */
const DUPLICATE_STATEMENT = '42P05';

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

const directQueries = new WeakMap<Database, Query>();
const dialect = new PgDialect();

/** The store's top-level PGlite handle: its hand-written statements may skip Drizzle's session (directRows). */
export function registerDirectQuery(db: Database, query: Query): void {
  directQueries.set(db, query);
}

/**
 * The rows of a hand-written statement, as `db.execute` gives them. On the store's own PGlite
 * handle the statement goes straight to the single-message query: Drizzle's session adds about
 * 0.3 ms per statement on a 2-core VM, which counts on the decision path. A transaction, or
 * PostgreSQL, goes through `db.execute`.
 */
export async function directRows<T>(db: Database, query: SQL): Promise<T[]> {
  const direct = directQueries.get(db);
  if (!direct) return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const { sql: text, params } = dialect.sqlToQuery(query);
  return (await direct<T>(text, params, { rowMode: 'object' })).rows;
}

/**
 * PGlite's `query`, sped up: one message, named once seen. `fallback` (PGlite's own query, with the
 * caller's option handling) serves what this path does not take.
 */
export function singleMessageQuery(client: PGlite, fallback: Query, maxNamed = MAX_NAMED_STATEMENTS): Query {
  const names = new Map<string, string>();
  const parsed = new Set<string>();
  const { serialize } = protocol;

  function nameOf(text: string): string {
    let name = names.get(text);
    if (name === undefined && names.size < maxNamed) names.set(text, (name = `gatehouse_${names.size + 1}`));
    return name ?? '';
  }

  async function runOnce<T>(
    text: string,
    name: string,
    values: (string | null)[],
    rowMode: QueryOptions['rowMode'],
  ): Promise<Results<T>> {
    // Both of PGlite's locks, as its own `query` takes them: another caller's transaction is never
    // entered between two of its statements, and nothing else runs between our messages. Whether
    // to Parse is decided under them, so two callers of a new statement parse it once.
    const { messages } = await client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(async () => {
        const parts: Uint8Array[] = [];
        if (name === '' || !parsed.has(name)) parts.push(serialize.parse({ name, text, types: [] }));
        parts.push(
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        );
        const result = await client.execProtocol(concat(parts));
        if (name !== '') parsed.add(name);
        return result;
      }),
    );
    return parse.parseResults(messages, client.parsers, rowMode ? { rowMode } : undefined)[0] as Results<T>;
  }

  return async function query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    const values = textValues(params);
    const rowMode = options?.rowMode;
    if (!values || !onlyRowMode(options)) return fallback<T>(text, params, options);
    const name = nameOf(text);
    try {
      return await runOnce<T>(text, name, values, rowMode);
    } catch (error) {
      // Our record of what the backend holds was wrong: correct it and try once more. After an
      // error the backend skips to the Sync, so the first attempt changed nothing.
      const code = (error as { code?: string }).code;
      if (name !== '' && code === DUPLICATE_STATEMENT) parsed.add(name);
      else if (name !== '' && code === INVALID_STATEMENT_NAME && parsed.delete(name)) {
        // parse it again
      } else throw withQuery(error, text, params);
      return runOnce<T>(text, name, values, rowMode).catch((again: unknown) => {
        throw withQuery(again, text, params);
      });
    }
  };
}

/** As PGlite's `query` reports a failed statement: the error, with the statement and its parameters. */
function withQuery(error: unknown, text: string, params: unknown[]): unknown {
  if (error && typeof error === 'object') Object.assign(error, { query: text, params });
  return error;
}

function onlyRowMode(options: QueryOptions | undefined): boolean {
  if (!options) return true;
  for (const key of Object.keys(options))
    if (key !== 'rowMode' || (options.rowMode !== 'object' && options.rowMode !== 'array')) return false;
  return true;
}

/** The parameters as PostgreSQL text, or undefined when one is not a plain scalar. */
function textValues(params: unknown[]): (string | null)[] | undefined {
  const out: (string | null)[] = [];
  for (const value of params) {
    if (value === null || value === undefined) out.push(null);
    else if (typeof value === 'string') out.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
    else if (typeof value === 'boolean') out.push(value ? 't' : 'f');
    else if (value instanceof Date) out.push(value.toISOString());
    else return undefined;
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
