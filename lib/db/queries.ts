// All query modules bound to one database (or transaction): `createQueries(db).relays.getRelay({ id })`.
import { auditQueries } from './audit';
import { conversationQueries } from './conversations';
import { CredentialChanges } from './credential-changes';
import type { Database } from './database';
import { eventQueries } from './events';
import { grantQueries } from './grants';
import { leaseQueries } from './leases';
import { messageQueries } from './messages';
import { policyQueries } from './policies';
import { relayQueries } from './relays';
import { runQueries } from './runs';
import { sessionQueries } from './sessions';
import { settingQueries } from './settings';
import { shadowQueries } from './shadow';
import { tokenQueries } from './tokens';
import { toolExecutionQueries } from './tool-executions';
import { userQueries } from './users';

export function createQueries(db: Database) {
  const credentials = new CredentialChanges();
  const credentialsChanged = (userId: string) => credentials.changed(userId);
  return {
    runs: runQueries(db),
    conversations: conversationQueries(db),
    messages: messageQueries(db),
    events: eventQueries(db),
    relays: relayQueries(db),
    toolExecutions: toolExecutionQueries(db),
    policies: policyQueries(db),
    shadow: shadowQueries(db),
    grants: grantQueries(db),
    audit: auditQueries(db),
    users: userQueries(db, credentialsChanged),
    tokens: tokenQueries(db, credentialsChanged),
    sessions: sessionQueries(db, credentialsChanged),
    settings: settingQueries(db),
    leases: leaseQueries(db),
    /** Changes to users, API tokens and sessions: a credential cache (lib/auth) compares its count, open streams watch them. */
    credentials,
  };
}

export type Queries = ReturnType<typeof createQueries>;
