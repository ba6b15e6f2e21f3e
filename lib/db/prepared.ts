// Named prepared statements on PGlite, for the few statements on the decision path (the settle of
// an approval). PGlite's `query` sends Parse, Describe, Bind, Describe, Execute and Sync as six
// calls into its WebAssembly backend and parses and plans the text every time: about 0.7 ms for
// the settle+claim CTE, and Drizzle's builder adds about 0.5 ms more. A statement parsed once
// under a name and then run as one Bind/Describe/Execute/Sync message takes about 0.17 ms
// (README, Performance).
//
// Only the process's own PGlite gets a runner (`registerPrepared`, at open). A Drizzle transaction
// object has none, so a query module bound to a transaction keeps its Drizzle statement; PostgreSQL
// has none either (a named statement is per connection, and a pooler such as PgBouncer in
// transaction mode hands the next statement to another connection that never saw it).
import { protocol, type PGlite } from '@electric-sql/pglite';
import type { Database } from './database';

/** A statement with `$1..$n` placeholders, prepared once per process under `name`. */
export interface PreparedStatement {
  name: string;
  text: string;
}

/** One row: column name to its value as PostgreSQL's text output (null for SQL NULL). */
export type TextRow = Record<string, string | null>;

export interface PreparedRunner {
  /** Runs `statement` with text parameters; the rows in text form. Errors are PGlite's DatabaseError. */
  run(statement: PreparedStatement, values: readonly (string | null)[]): Promise<TextRow[]>;
}

const runners = new WeakMap<Database, PreparedRunner>();

export function registerPrepared(db: Database, runner: PreparedRunner): void {
  runners.set(db, runner);
}

/** The runner of a store's top-level handle; undefined for a transaction or PostgreSQL. */
export function preparedRunnerOf(db: Database): PreparedRunner | undefined {
  return runners.get(db);
}

/** SQLSTATE 26000: the backend does not know the name (the statement was deallocated). */
const INVALID_STATEMENT_NAME = '26000';
/** SQLSTATE 42P05: the backend knows the name already (a Parse succeeded in a message whose Bind then failed). */
const DUPLICATE_STATEMENT = '42P05';

export function pglitePreparedRunner(client: PGlite): PreparedRunner {
  const prepared = new Set<string>();
  const { serialize } = protocol;

  async function runOnce(statement: PreparedStatement, values: readonly (string | null)[]): Promise<TextRow[]> {
    const parts: Uint8Array[] = [];
    if (!prepared.has(statement.name)) parts.push(serialize.parse({ name: statement.name, text: statement.text, types: [] }));
    parts.push(
      serialize.bind({ statement: statement.name, values: [...values] }),
      serialize.describe({ type: 'P' }),
      serialize.execute({}),
      serialize.sync(),
    );
    // Both of PGlite's locks, as its own `query` takes them: another caller's transaction is never
    // entered between two of its statements, and nothing else runs between our messages.
    const { messages } = await client._runExclusiveTransaction(() =>
      client._runExclusiveQuery(() => client.execProtocol(concat(parts))),
    );
    prepared.add(statement.name);
    return rowsOf(messages);
  }

  return {
    async run(statement, values) {
      try {
        return await runOnce(statement, values);
      } catch (error) {
        // Our record of what the backend holds was wrong: correct it and try once more. After an
        // error the backend skips to the Sync, so the first attempt changed nothing.
        const code = (error as { code?: string }).code;
        if (code === DUPLICATE_STATEMENT && !prepared.has(statement.name)) prepared.add(statement.name);
        else if (code !== INVALID_STATEMENT_NAME || !prepared.delete(statement.name)) throw error;
        return runOnce(statement, values);
      }
    },
  };
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

type BackendMessage = { name: string; fields?: unknown[] };

function rowsOf(messages: readonly BackendMessage[]): TextRow[] {
  let names: string[] = [];
  const rows: TextRow[] = [];
  for (const message of messages) {
    if (message.name === 'rowDescription') names = (message.fields as { name: string }[]).map((field) => field.name);
    else if (message.name === 'dataRow') {
      const row: TextRow = {};
      (message.fields as (string | null)[]).forEach((value, i) => (row[names[i]!] = value));
      rows.push(row);
    }
  }
  return rows;
}
