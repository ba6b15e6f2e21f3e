// drizzle-kit: `npx drizzle-kit generate` diffs lib/db/schema.ts against the last snapshot and writes
// the next SQL migration into lib/db/migrations (committed; applied at open by lib/db/migrate.ts).
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './lib/db/schema.ts',
  out: './lib/db/migrations',
});
