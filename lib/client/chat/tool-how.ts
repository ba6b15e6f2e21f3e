// How a tool call was allowed or refused, in the words a transcript card shows: who or what
// decided ("allowed by rule #12", "Always Allow by alice", "approved by alice", "denied by admin:
// reason", "expired: no decision in time"). A human's answer (the relay's resolution) wins over
// the gate's decision that asked for it. Pure, so each wording is pinned by a test.
import type { Decision, RuleRef } from '@/lib/policy/types';
import type { Resolution } from './transcript';

/** Who settled a relay without a person: the deadline, a stopped run. */
const NOBODY = 'system';

function ruleText(rule: RuleRef): string {
  return `rule #${rule.index + 1}${rule.id ? ` (${rule.id})` : ''}`;
}

function byResolution(r: Resolution): string {
  const reason = r.reason ? `: ${r.reason}` : '';
  switch (r.status) {
    case 'approved':
      if (!r.always) return `approved by ${r.decidedBy}`;
      return `Always Allow${r.scope ? ` (${r.scope === 'global' ? 'everyone' : 'session'})` : ''} by ${r.decidedBy}`;
    case 'denied':
      return r.decidedBy === NOBODY ? `denied${reason}` : `denied by ${r.decidedBy}${reason}`;
    case 'expired':
      return 'expired: no decision in time';
    case 'cancelled':
      return `cancelled${reason}`;
  }
}

function byDecision(d: Decision): string | undefined {
  if (d.action === 'ask') return undefined;
  const verb = d.action === 'allow' ? 'allowed' : 'denied';
  switch (d.reason) {
    case 'matched_rule':
      return d.rule ? `${verb} by ${ruleText(d.rule)}` : `${verb} by a rule`;
    case 'session_grant':
      return 'allowed by Always Allow (grant)';
    case 'mode':
      return `${verb} by the run's mode`;
    case 'risk_default':
    case 'default_action':
      return `${verb} by default`;
    case 'unparseable':
      return `${verb}: the call could not be read`;
  }
}

export function howDecided(item: { decision?: Decision; resolution?: Resolution }): string | undefined {
  if (item.resolution) return byResolution(item.resolution);
  return item.decision ? byDecision(item.decision) : undefined;
}
