// Keyset pagination, newest first, over (timestamp, id): the cursor is the last row's key, opaque to
// callers. Timestamps are stored with millisecond precision, so the Date in the cursor is exact.
import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { InvalidCursorError } from './errors';

export interface Page<T> {
  items: T[];
  /** Pass back as `cursor` for the next (older) page; absent on the last page. */
  nextCursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

export function pageSize(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_PAGE_SIZE;
  return Math.min(MAX_PAGE_SIZE, Math.max(1, Math.trunc(limit)));
}

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(JSON.stringify([at.getTime(), id])).toString('base64url');
}

export function decodeCursor(cursor: string): { at: Date; id: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string') {
      return { at: new Date(value[0] as number), id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new InvalidCursorError(cursor);
}

/** Rows strictly older than the cursor in (at desc, id desc) order. */
export function olderThan(atColumn: AnyPgColumn, idColumn: AnyPgColumn, cursor: string | undefined): SQL | undefined {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor);
  return or(lt(atColumn, key.at), and(eq(atColumn, key.at), lt(idColumn, key.id)));
}

export const newestFirst = (atColumn: AnyPgColumn, idColumn: AnyPgColumn) => [desc(atColumn), desc(idColumn)];

/** Builds the page from `limit + 1` fetched rows. */
export function toPage<T>(rows: T[], limit: number, key: (row: T) => { at: Date; id: string }): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return last ? { items, nextCursor: encodeCursor(key(last).at, key(last).id) } : { items };
}
