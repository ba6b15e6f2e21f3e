// GET /api/policy/shadow/diffs: how the shadow's decisions differed from the live ones: the
// counters, the differences grouped by (live -> shadow, tool) with a few examples each, and the
// recent ones a page at a time (`limit`, `cursor`). 404 when no shadow is set (or, with `?id=`,
// when that one is no longer set).
import { z } from 'zod';
import { handle, searchParams } from '@/lib/server/http/handler';
import { getShadow } from '@/lib/server/shadow/shadow-store';
import { diffDto, shadowDto } from '@/lib/server/shadow/dto';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const QuerySchema = z.object({
  id: z.string().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
  cursor: z.string().max(200).optional(),
  examples: z.coerce.number().int().min(0).max(10).optional(),
});

export const GET = handle('policy:edit', async (request, _params, rt) => {
  const query = searchParams(request, QuerySchema);
  // This instance's differences still waiting to be written are written first.
  await rt.shadow.monitor.flush();
  const shadow = await getShadow(rt.q, query.id);
  const [groups, recent] = await Promise.all([
    rt.q.shadow.summarizeShadowDiffs({ shadowId: shadow.id, examples: query.examples ?? 3 }),
    rt.q.shadow.listShadowDiffs({ shadowId: shadow.id, limit: query.limit ?? 20, cursor: query.cursor }),
  ]);
  const differ = shadow.compared - shadow.same;
  return Response.json({
    shadow: shadowDto(shadow),
    counts: { compared: shadow.compared, same: shadow.same, differ, dropped: shadow.dropped },
    groups: groups.map((g) => ({ ...g, examples: g.examples.map(diffDto) })),
    recent: { items: recent.items.map(diffDto), ...(recent.nextCursor ? { nextCursor: recent.nextCursor } : {}) },
  });
});
