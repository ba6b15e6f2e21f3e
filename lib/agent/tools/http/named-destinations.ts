// Which local network destinations the administrator's policy names: fetch_url reaches a
// loopback, private, link-local or metadata address only when an allow or ask rule of that
// policy (the server's stored policy; never a run's own `permissions`, a grant, a mode or an
// approval) matches the URL and names its host, or an IP address or CIDR block holding the
// resolved address, without a wildcard. A wildcard (`*`, `http://*/**`, `*.corp`) never does:
// it names no destination, and a name someone else's DNS answers for may point anywhere.
import { compilePolicy, evaluate, type CompiledPolicy, type Rule, type ToolCall } from '../../../policy';
import { compileHostPattern, normalizeHost, splitList } from '../../../policy/hosts';

interface NamingRule {
  /** 1-based, as people count rules. */
  number: number;
  id?: string;
  /** The rule alone, as an allow rule: does it match the call? */
  alone: CompiledPolicy;
  /** Host names and IP literals it names, canonical. */
  hosts: Set<string>;
  /** CIDR blocks it names. */
  blocks: ((address: string) => boolean)[];
}

const cache = new WeakMap<CompiledPolicy, NamingRule[]>();

/** The rules of the policy that name a destination for `url` literally (computed once per policy). */
function namingRules(policy: CompiledPolicy): NamingRule[] {
  let rules = cache.get(policy);
  if (!rules) {
    rules = policy.policy.rules.flatMap((rule, i) => {
      if (rule.action === 'deny') return [];
      const named = namedIn(rule);
      if (named.hosts.size === 0 && named.blocks.length === 0) return [];
      const { once: _once, timeoutS: _timeoutS, onTimeout: _onTimeout, ...matching } = rule;
      const alone = compilePolicy({ defaultAction: 'deny', rules: [{ ...matching, action: 'allow' }] });
      return [{ number: i + 1, ...(rule.id ? { id: rule.id } : {}), alone, ...named }];
    });
    cache.set(policy, rules);
  }
  return rules;
}

/** The literal hosts and CIDR blocks of a rule's `url` pattern and its `url` conditions. */
function namedIn(rule: Rule): Pick<NamingRule, 'hosts' | 'blocks'> {
  const hosts = new Set<string>();
  const blocks: NamingRule['blocks'] = [];
  const addHost = (text: string | undefined) => {
    const host = text === undefined || text.includes('*') ? undefined : normalizeHost(text);
    if (host) hosts.add(host);
  };
  const pattern = rule.params?.url;
  if (pattern !== undefined) addHost(patternHost(pattern));
  for (const condition of rule.when ?? []) {
    if (condition.key !== 'url') continue;
    if (condition.op === 'glob' || condition.op === 'eq') addHost(patternHost(condition.value));
    if (condition.op !== 'host') continue;
    for (const entry of splitList(condition.value)) {
      if (entry.includes('*')) continue;
      if (!entry.includes('/')) {
        addHost(entry);
        continue;
      }
      try {
        blocks.push(compileHostPattern(entry));
      } catch {
        // Not a CIDR block: it names nothing.
      }
    }
  }
  return { hosts, blocks };
}

/** The host of a URL pattern (`scheme://[user@]host[:port]/...`), with any wildcard left in. */
function patternHost(pattern: string): string | undefined {
  const authority = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/([^/?#]*)/.exec(pattern.trim())?.[1];
  if (authority === undefined) return undefined;
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return host.replace(/:(\d+|\*)$/, '') || undefined;
}

/**
 * The rule of `policy` that lets `url` reach these restricted addresses, described for the
 * result, or undefined. The rule must match the call (as an allow rule: every condition known to
 * hold) and name the URL's host, or for each address an IP literal equal to it or a block holding it.
 */
export function namingRuleFor(
  policy: CompiledPolicy | undefined,
  call: ToolCall,
  url: URL,
  addresses: readonly string[],
): string | undefined {
  if (!policy) return undefined;
  const host = normalizeHost(url.href);
  const canonical = addresses.map((address) => normalizeHost(address) ?? address);
  for (const rule of namingRules(policy)) {
    const names =
      (host !== undefined && rule.hosts.has(host)) ||
      canonical.every((a) => rule.hosts.has(a) || rule.blocks.some((inBlock) => inBlock(a)));
    if (!names) continue;
    const decision = evaluate(rule.alone, call, { mode: 'default' });
    if (decision.action === 'allow' && decision.reason === 'matched_rule')
      return `rule #${rule.number}${rule.id ? ` (${rule.id})` : ''}`;
  }
  return undefined;
}
