// GET /api/health: 200 when the database answers, 503 (with a clear message) when it does not.
// Anyone may ask whether the server is up; which database and model it runs is for signed-in
// callers (a session or an API token) only: it tells an outsider what to attack.
import { sql } from 'drizzle-orm';
import { authenticate } from '@/lib/auth';
import { getRuntime } from '@/lib/server/runtime';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  try {
    const rt = await getRuntime();
    await rt.database.db.execute(sql`select 1`);
    const user = await authenticate({ q: rt.q, headers: request.headers, secret: rt.sessionSecret });
    return Response.json(user ? { ok: true, database: rt.database.kind, model: rt.config.model } : { ok: true });
  } catch {
    return Response.json(
      { ok: false, error: { code: 'unavailable:database', message: 'The database is not reachable' } },
      { status: 503 },
    );
  }
}
