// The key that signs session cookies: GATEHOUSE_SECRET when set (config.ts requires 32+ characters),
// else a random secret created on first start and kept in the settings table, so sessions survive
// restarts and every instance on one database signs alike.
import { randomBytes } from 'node:crypto';
import type { Queries } from '../db';

export const SESSION_SECRET_KEY = 'session_secret';

export async function resolveSessionSecret({
  q,
  configured,
}: {
  q: Pick<Queries, 'settings'>;
  configured?: string;
}): Promise<string> {
  if (configured) return configured;
  return q.settings.ensureSetting({ key: SESSION_SECRET_KEY, value: randomBytes(32).toString('base64url') });
}
