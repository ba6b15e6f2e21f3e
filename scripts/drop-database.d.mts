// Types of scripts/drop-database.mjs, for its TypeScript callers.
export declare function dropDatabaseForce(
  client: { query(text: string): Promise<unknown> },
  quotedName: string,
): Promise<void>;
