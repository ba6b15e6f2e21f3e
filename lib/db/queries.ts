// All query modules bound to one database (or transaction): `createQueries(db).relays.getRelay({ id })`.
import { auditQueries } from './audit';
import type { Database } from './database';
import { eventQueries } from './events';
import { grantQueries } from './grants';
import { leaseQueries } from './leases';
import { messageQueries } from './messages';
import { policyQueries } from './policies';
import { relayQueries } from './relays';
import { runQueries } from './runs';
import { settingQueries } from './settings';
import { tokenQueries } from './tokens';
import { toolExecutionQueries } from './tool-executions';
import { userQueries } from './users';

/** Bumped after every change to users or API tokens made through one set of queries; see `credentials`. */
export interface ChangeCounter {
  readonly version: number;
}

export function createQueries(db: Database) {
  const credentials = { version: 0 };
  const credentialsChanged = () => {
    credentials.version += 1;
  };
  return {
    runs: runQueries(db),
    messages: messageQueries(db),
    events: eventQueries(db),
    relays: relayQueries(db),
    toolExecutions: toolExecutionQueries(db),
    policies: policyQueries(db),
    grants: grantQueries(db),
    audit: auditQueries(db),
    users: userQueries(db, credentialsChanged),
    tokens: tokenQueries(db, credentialsChanged),
    settings: settingQueries(db),
    leases: leaseQueries(db),
    /** Changes to users and API tokens made through these queries: a credential cache (lib/auth) compares it. */
    credentials: credentials as ChangeCounter,
  };
}

export type Queries = ReturnType<typeof createQueries>;
