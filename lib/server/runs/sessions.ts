// Conversations for the chat: the list (own sessions; approvers and admins may name another
// user) and one session with all its turns. A session someone may not see is a 404, as a run is:
// its existence is not revealed. Visibility is its first run's owner's (canSeeRun), so an admin's
// run added to someone's session does not make the session the admin's.
import { can, canSeeRun, ForbiddenError, type AuthUser } from '../../auth';
import type { ConversationRow, Queries, RunRow } from '../../db';
import type { RunSummary, SessionDetail, SessionSummary } from '../../contract';
import { AppError } from '../http/errors';
import { readEvents } from './run-log';

/** At most this many turns are read for one session (a bound on the work of one request). */
export const MAX_SESSION_TURNS = 200;

export async function listSessions(
  q: Queries,
  user: AuthUser,
  query: { user?: string; limit?: number; cursor?: string },
) {
  if (query.user !== undefined && query.user !== user.id && !can(user, 'runs:read:any')) {
    throw new ForbiddenError('runs:read:any', 'Only approvers and admins may list other users’ conversations');
  }
  const page = await q.conversations.listConversations({
    owner: query.user ?? user.id,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { items: page.items.map(toSummary), nextCursor: page.nextCursor ?? null };
}

export async function sessionDetail(q: Queries, user: AuthUser, sessionId: string): Promise<SessionDetail> {
  const first = await q.runs.sessionOwner({ sessionId });
  if (!first || !canSeeRun(user, first)) throw new AppError('not_found:session', 404, 'No such conversation');
  const page = await q.runs.listRuns({ sessionId, limit: MAX_SESSION_TURNS });
  const runs = page.items.toReversed();
  const turns = [];
  // One run at a time: PGlite serves one statement at a time anyway, and a session is short.
  for (const run of runs)
    turns.push({ run: runSummary(run), prompt: promptOf(run), events: await readEvents(q.events, run.id) });
  const last = runs.at(-1)!;
  const session: SessionSummary = {
    sessionId,
    owner: first.owner,
    title: runs[0]!.title,
    runCount: runs.length,
    lastRunId: last.id,
    lastStatus: last.status,
    createdAt: runs[0]!.createdAt.toISOString(),
    lastRunAt: last.createdAt.toISOString(),
  };
  return { session, turns };
}

function toSummary(row: ConversationRow): SessionSummary {
  return { ...row, createdAt: row.createdAt.toISOString(), lastRunAt: row.lastRunAt.toISOString() };
}

function runSummary({ state: _state, lastEventSeq: _seq, lastMessageSeq: _m, ...run }: RunRow): RunSummary {
  return { ...run, createdAt: run.createdAt.toISOString(), updatedAt: run.updatedAt.toISOString() };
}

/** The last user message of the run's conversation: the prompt this run was started with. */
export function promptOf(run: Pick<RunRow, 'state'>): string {
  const messages = (run.state?.messages ?? []) as Array<{ role?: string; content?: unknown }>;
  const last = messages.findLast((m) => m.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  if (!Array.isArray(last.content)) return '';
  return last.content
    .map((part: { type?: string; text?: unknown }) =>
      part.type === 'text' && typeof part.text === 'string' ? part.text : '',
    )
    .join('');
}
