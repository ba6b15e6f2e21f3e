// GET /api/health: 200 when the database answers, 503 (with a clear message) when it does not.
import { sql } from 'drizzle-orm';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  try {
    const rt = await getRuntime();
    await rt.database.db.execute(sql`select 1`);
    return Response.json({ ok: true, database: rt.database.kind, model: rt.config.model });
  } catch {
    return Response.json(
      { ok: false, error: { code: 'unavailable:database', message: 'The database is not reachable' } },
      { status: 503 },
    );
  }
}
