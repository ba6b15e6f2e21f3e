// What Always Allow would do for this call. Offered: the rules it adds (editable by admins, each
// edit re-checked live). Not offered, because the grant would not cover this very call: why not
// (a redirection, an ask rule that asks whatever is granted, another part), and for admins what
// would work: edit the pattern here until it covers the call, or change the rule on the Rules page.
'use client';
import { Notice, Revealed } from '@/components/ui';
import type { GrantScope, RelayRequest } from '@/lib/contract';
import { RuleEditorInline } from './rule-editor-inline';
import type { AlwaysAllowState } from './use-always-allow';

interface Props {
  relay: RelayRequest;
  verdict: AlwaysAllowState;
  canEdit: boolean;
  patterns: Record<string, string>;
  onPatternChange(key: string, value: string): void;
  scope: GrantScope;
  onScopeChange(scope: GrantScope): void;
  errors: readonly string[];
}

export function AlwaysAllowPanel({
  relay,
  verdict,
  canEdit,
  patterns,
  onPatternChange,
  scope,
  onScopeChange,
  errors,
}: Props) {
  const editor = relay.suggestedRules.length > 0 && (verdict.covers || verdict.checking || canEdit);
  return (
    <>
      {!verdict.covers && !verdict.checking && <WhyNotOffered relay={relay} verdict={verdict} canEdit={canEdit} />}
      {editor && (
        <RuleEditorInline
          rules={relay.suggestedRules}
          editable={canEdit}
          patterns={patterns}
          onPatternChange={onPatternChange}
          scope={scope}
          onScopeChange={onScopeChange}
          errors={errors}
        />
      )}
      {verdict.checking && (
        <p className="approval-why" role="status">
          Checking the edited rule…
        </p>
      )}
    </>
  );
}

function WhyNotOffered({
  relay,
  verdict,
  canEdit,
}: {
  relay: RelayRequest;
  verdict: AlwaysAllowState;
  canEdit: boolean;
}) {
  const rule = verdict.rule;
  const ruleName = rule ? `rule #${rule.index + 1}${rule.id ? ` (${rule.id})` : ''}` : undefined;
  return (
    <Notice tone="info" className="always-allow-why">
      <p>
        <strong>Always Allow is not offered:</strong> the rule it would add would not cover this call, so the same call
        would ask again.
      </p>
      {verdict.reason && (
        <p>
          Why: <Revealed text={verdict.reason} />
        </p>
      )}
      {ruleName && <p>{`The policy's ${ruleName} asks every time, whatever is granted.`}</p>}
      {canEdit && ruleName && (
        <p>
          <a href="/rules">Change {ruleName} on the Rules page</a> to stop it asking.
        </p>
      )}
      {canEdit && !ruleName && relay.suggestedRules.length > 0 && (
        <p>Edit the pattern below: Always Allow is offered as soon as the rule covers this call.</p>
      )}
      <p>Approve Once approves just this call.</p>
    </Notice>
  );
}
