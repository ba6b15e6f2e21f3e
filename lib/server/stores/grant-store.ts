// The grant store the server uses: lib/agent's GrantStore over the grants table, so an "Always
// Allow" outlives the process and a global grant applies to every session. Allow-once grants are
// consumed with a conditional update: two calls racing for one grant cannot both use it.
import type { GrantQueries } from '../../db';
import type { Rule } from '../../policy';
import type { GrantStore } from '../../agent';

export class DbGrantStore implements GrantStore {
  /** Which row each rule handed out by `list` came from, so `consume` can find it again. */
  private readonly ids = new WeakMap<Rule, string>();

  constructor(private readonly grants: GrantQueries) {}

  async list(sessionId: string): Promise<Rule[]> {
    const rows = await this.grants.listGrants({ sessionId });
    return rows.map((row) => {
      const rule: Rule = row.once ? { ...row.rule, once: true } : { ...row.rule };
      this.ids.set(rule, row.id);
      return rule;
    });
  }

  async add(sessionId: string, rules: Rule[], scope: 'session' | 'global', createdBy: string): Promise<void> {
    for (const rule of rules) await this.grants.createGrant({ rule, scope, sessionId, createdBy, once: rule.once });
  }

  /** False when another call used up one of these allow-once grants first (that call alone was allowed by it). */
  async consume(_sessionId: string, used: Rule[]): Promise<boolean> {
    let all = true;
    for (const rule of used) {
      const id = this.ids.get(rule);
      if (id && !(await this.grants.consumeGrant({ id }))) all = false;
    }
    return all;
  }
}
