// The rules Always Allow will add (the relay's suggestedRules). For those who may manage grants
// (admins) they are editable before confirming: each param pattern is a text field, and the scope
// says who the grant covers. Everyone else sees them read-only, for this session: the server takes
// nothing else from them (README, Always Allow). What is shown here is exactly what is stored. A text field cannot mark characters inside
// it, so a pattern holding invisible or look-alike ones is also shown revealed beneath its field.
'use client';
import { RadioGroup, Revealed, TextField } from '@/components/ui';
import { hasInvisible } from '@/lib/client/reveal';
import type { GrantScope } from '@/lib/contract';
import type { Rule } from '@/lib/policy/types';

/** The rules as the human edited them, each with a description that matches its patterns. */
export function editedRules(suggested: readonly Rule[], patterns: Record<string, string>): Rule[] {
  return suggested.map((rule, i) => {
    if (!rule.params) return rule;
    const params = Object.fromEntries(
      Object.entries(rule.params).map(([name, value]) => [name, patterns[`${i}.${name}`] ?? value]),
    );
    const changed = Object.entries(params).some(([name, value]) => rule.params![name] !== value);
    if (!changed) return rule;
    return {
      ...rule,
      params,
      description: `Always allow: ${rule.tool} ${Object.entries(params)
        .map(([n, v]) => `${n} ${v}`)
        .join(', ')}`,
    };
  });
}

export function emptyPatterns(suggested: readonly Rule[], patterns: Record<string, string>): string[] {
  return suggested.flatMap((rule, i) =>
    Object.keys(rule.params ?? {})
      .filter((name) => (patterns[`${i}.${name}`] ?? rule.params![name]!).trim() === '')
      .map((name) => `${i}.${name}`),
  );
}

export function RuleEditorInline({
  rules,
  editable,
  patterns,
  onPatternChange,
  scope,
  onScopeChange,
  errors,
}: {
  rules: readonly Rule[];
  editable: boolean;
  patterns: Record<string, string>;
  onPatternChange(key: string, value: string): void;
  scope: GrantScope;
  onScopeChange(scope: GrantScope): void;
  errors: readonly string[];
}) {
  return (
    <section className="rule-editor" aria-labelledby="rule-editor-title">
      <h3 id="rule-editor-title" className="approval-section__title">
        Always Allow will add
      </h3>
      {rules.length === 0 && <p>No rule can be suggested for this call; Always Allow approves it once.</p>}
      {rules.map((rule, i) => (
        <fieldset key={i} className="rule-editor__rule">
          <legend>
            Rule {i + 1}: {rule.action}{' '}
            <code>
              <Revealed text={rule.tool} />
            </code>
            {rule.agent ? (
              <>
                {' for agent '}
                <Revealed text={rule.agent} />
              </>
            ) : null}
          </legend>
          {Object.entries(rule.params ?? {}).map(([name, value]) => {
            const key = `${i}.${name}`;
            const pattern = patterns[key] ?? value;
            if (!editable) {
              return (
                <p key={key}>
                  {name}{' '}
                  <code>
                    <Revealed text={pattern} />
                  </code>
                </p>
              );
            }
            return (
              <TextField
                key={key}
                label={rules.length > 1 ? `Rule ${i + 1} ${name} pattern` : `${name} pattern`}
                value={pattern}
                dir="ltr"
                hint={hasInvisible(pattern) ? <InvisibleHint pattern={pattern} /> : undefined}
                spellCheck={false}
                autoComplete="off"
                error={errors.includes(key) ? 'The pattern must not be empty' : undefined}
                onChange={(e) => onPatternChange(key, e.target.value)}
              />
            );
          })}
          {!rule.params && (
            <p>
              Every <Revealed text={rule.tool} /> call.
            </p>
          )}
        </fieldset>
      ))}
      {editable ? (
        <RadioGroup<GrantScope>
          legend="Applies to"
          value={scope}
          onChange={onScopeChange}
          options={[
            { value: 'session', label: 'This session' },
            { value: 'global', label: 'Everyone' },
          ]}
        />
      ) : (
        <p>Applies to this session.</p>
      )}
    </section>
  );
}

function InvisibleHint({ pattern }: { pattern: string }) {
  return (
    <>
      Contains invisible or look-alike characters:{' '}
      <code>
        <Revealed text={pattern} />
      </code>
    </>
  );
}
