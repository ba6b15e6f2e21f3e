// All query modules bound to one database (or transaction): `createQueries(db).relays.getRelay({ id })`.
import { auditQueries } from './audit';
import { conversationQueries } from './conversations';
import { CredentialChanges } from './credential-changes';
import { DecisionChanges } from './decision-changes';
import type { Database } from './database';
import { eventQueries } from './events';
import { grantQueries } from './grants';
import { leaseQueries } from './leases';
import { mcpQueries } from './mcp';
import { messageQueries } from './messages';
import { policyQueries } from './policies';
import { relayInboxQueries } from './relay-inbox';
import { relayQueries } from './relays';
import { relayQuorumQueries } from './relay-quorum';
import { runQueries } from './runs';
import { sessionQueries } from './sessions';
import { settingQueries } from './settings';
import { shadowQueries } from './shadow';
import { tokenQueries } from './tokens';
import { toolExecutionQueries } from './tool-executions';
import { userQueries } from './users';
import { webhookQueries } from './webhooks';

export function createQueries(db: Database): Queries {
  const credentials = new CredentialChanges();
  const decisions = new DecisionChanges();
  return bind(
    db,
    { credentials, decisions },
    {
      credentials: (userId) => credentials.changed(userId),
      decisions: () => decisions.changed(),
    },
  );
}

interface Counters {
  credentials: CredentialChanges;
  decisions: DecisionChanges;
}
/** Where a module reports a change: at once, or (in a transaction) after the commit. */
interface ChangeSinks {
  credentials: (userId: string) => void;
  decisions: () => void;
}

function modules(db: Database, { credentials, decisions }: Counters, changed: ChangeSinks) {
  const credentialsChanged = changed.credentials;
  return {
    runs: runQueries(db, changed.decisions),
    conversations: conversationQueries(db),
    messages: messageQueries(db),
    events: eventQueries(db),
    relays: relayQueries(db),
    quorum: relayQuorumQueries(db),
    inbox: relayInboxQueries(db),
    toolExecutions: toolExecutionQueries(db),
    policies: policyQueries(db, changed.decisions),
    shadow: shadowQueries(db),
    grants: grantQueries(db, changed.decisions),
    audit: auditQueries(db),
    users: userQueries(db, credentialsChanged),
    tokens: tokenQueries(db, credentialsChanged),
    sessions: sessionQueries(db, credentialsChanged),
    settings: settingQueries(db, changed.decisions),
    leases: leaseQueries(db),
    mcp: mcpQueries(db),
    webhooks: webhookQueries(db),
    /** Changes to users, API tokens and sessions: a credential cache (lib/auth) compares its count, open streams watch them. */
    credentials,
    /** Changes to the policy, grants, runs' modes and settings made through these queries: a decision-input cache compares its count. */
    decisions,
  };
}

export type Queries = ReturnType<typeof modules> & {
  /**
   * Runs `fn` with every query module bound to one transaction: what it writes commits together
   * or not at all (a change and its audit row). Changes are announced and counted after the commit.
   */
  transaction<T>(fn: (tx: Queries) => Promise<T>): Promise<T>;
};

function bind(db: Database, counters: Counters, changed: ChangeSinks): Queries {
  return {
    ...modules(db, counters, changed),
    async transaction<T>(fn: (tx: Queries) => Promise<T>): Promise<T> {
      const users: string[] = [];
      let decisions = 0;
      let result: T;
      try {
        result = await db.transaction((tx) =>
          fn(
            bind(tx, counters, {
              credentials: (userId) => users.push(userId),
              decisions: () => void decisions++,
            }),
          ),
        );
      } finally {
        // Counted after the commit (or the rollback: a needless reload is harmless), never before it.
        if (decisions > 0) changed.decisions();
      }
      for (const userId of users) changed.credentials(userId);
      return result;
    },
  };
}
