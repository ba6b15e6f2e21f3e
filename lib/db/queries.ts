// All query modules bound to one database (or transaction): `createQueries(db).relays.getRelay({ id })`.
import { auditQueries } from './audit';
import { conversationQueries } from './conversations';
import { CredentialChanges } from './credential-changes';
import type { Database } from './database';
import { eventQueries } from './events';
import { grantQueries } from './grants';
import { leaseQueries } from './leases';
import { mcpQueries } from './mcp';
import { messageQueries } from './messages';
import { policyQueries } from './policies';
import { relayQueries } from './relays';
import { relayQuorumQueries } from './relay-quorum';
import { runQueries } from './runs';
import { sessionQueries } from './sessions';
import { settingQueries } from './settings';
import { shadowQueries } from './shadow';
import { tokenQueries } from './tokens';
import { toolExecutionQueries } from './tool-executions';
import { userQueries } from './users';

export function createQueries(db: Database): Queries {
  const credentials = new CredentialChanges();
  return bind(db, credentials, (userId) => credentials.changed(userId));
}

function modules(db: Database, credentials: CredentialChanges, credentialsChanged: (userId: string) => void) {
  return {
    runs: runQueries(db),
    conversations: conversationQueries(db),
    messages: messageQueries(db),
    events: eventQueries(db),
    relays: relayQueries(db),
    quorum: relayQuorumQueries(db),
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
    mcp: mcpQueries(db),
    /** Changes to users, API tokens and sessions: a credential cache (lib/auth) compares its count, open streams watch them. */
    credentials,
  };
}

export type Queries = ReturnType<typeof modules> & {
  /**
   * Runs `fn` with every query module bound to one transaction: what it writes commits together
   * or not at all (a change and its audit row). Credential changes are announced after the commit.
   */
  transaction<T>(fn: (tx: Queries) => Promise<T>): Promise<T>;
};

function bind(db: Database, credentials: CredentialChanges, changed: (userId: string) => void): Queries {
  return {
    ...modules(db, credentials, changed),
    async transaction(fn) {
      const changes: string[] = [];
      const result = await db.transaction((tx) => fn(bind(tx, credentials, (userId) => changes.push(userId))));
      for (const userId of changes) changed(userId);
      return result;
    },
  };
}
