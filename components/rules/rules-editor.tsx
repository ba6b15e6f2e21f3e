// The rules card: the table plus add / edit / delete. An edit is applied to the policy version it
// was opened on and saved with that version (If-Match), so a newer save by someone else is
// reported by the page instead of being overwritten.
'use client';
import { useState } from 'react';
import { Button, Card, CardHeader, Dialog, Notice, TextField } from '@/components/ui';
import { ApiError } from '@/lib/client/api';
import { emptyValues, ruleName, ruleToValues, withRule, withoutRule } from '@/lib/client/policy-edit';
import { conflictVersion, useSavePolicy, type StoredPolicy } from '@/lib/client/policy';
import { describeRule } from '@/lib/policy/explain';
import type { Policy, Rule } from '@/lib/policy/types';
import { RuleForm, type SaveProblem } from './rule-form';
import { RuleGroups } from './rule-groups';

interface Editing {
  base: StoredPolicy;
  /** null: a new rule. */
  index: number | null;
}

export interface RulesEditorProps {
  current: StoredPolicy;
  decidingIndex?: number;
  onConflict: (version: number) => void;
}

export function RulesEditor({ current, decidingIndex, onConflict }: RulesEditorProps) {
  const save = useSavePolicy();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<{ base: StoredPolicy; index: number } | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'danger'; text: string } | null>(null);
  const [filter, setFilter] = useState('');

  async function write(base: StoredPolicy, policy: Policy, note: string): Promise<SaveProblem | undefined> {
    try {
      const saved = await save.mutateAsync({ policy, version: base.version, note });
      setMessage({ tone: 'success', text: `${note}. The rules are now version ${saved.version}.` });
      return undefined;
    } catch (error) {
      const conflict = conflictVersion(error);
      if (conflict !== undefined) {
        onConflict(conflict);
        return { conflict: true };
      }
      if (error instanceof ApiError && error.fields.length > 0) return { issues: error.fields, prefix: '' };
      return { message: error instanceof Error ? error.message : 'The save failed' };
    }
  }

  async function saveRule(rule: Rule): Promise<SaveProblem | undefined> {
    if (!editing) return undefined;
    const { base, index } = editing;
    const at = index ?? base.policy.rules.length;
    const problem = await write(
      base,
      withRule(base.policy, index, rule),
      index === null ? `Added rule ${ruleName(rule, at)}` : `Saved rule ${ruleName(rule, at)}`,
    );
    if (!problem || 'conflict' in problem) setEditing(null);
    // The server names the whole policy's paths; only this rule's belong on the form.
    if (problem && 'issues' in problem) return { issues: problem.issues, prefix: `rules.${at}.` };
    return problem;
  }

  async function confirmDelete() {
    if (!deleting) return;
    const { base, index } = deleting;
    const rule = base.policy.rules[index];
    setDeleting(null);
    if (!rule) return;
    const problem = await write(base, withoutRule(base.policy, index), `Deleted rule ${ruleName(rule, index)}`);
    if (problem && 'message' in problem) setMessage({ tone: 'danger', text: problem.message });
    if (problem && 'issues' in problem)
      setMessage({ tone: 'danger', text: problem.issues.map((i) => `${i.path}: ${i.message}`).join('; ') });
  }

  const deletingRule = deleting ? deleting.base.policy.rules[deleting.index] : undefined;
  const editingRule = editing?.index != null ? editing.base.policy.rules[editing.index] : undefined;
  return (
    <Card aria-labelledby="rules-heading">
      <CardHeader
        id="rules-heading"
        title="Rules"
        actions={
          <Button
            variant="primary"
            onClick={() => {
              setMessage(null);
              setEditing({ base: current, index: null });
            }}
            disabled={editing !== null}
          >
            Add rule
          </Button>
        }
      />
      <p className="rules-muted">
        Version {current.version} · {current.policy.rules.length} rules · default action{' '}
        <strong>{current.policy.defaultAction}</strong>
      </p>
      <Notice className="rules-note">
        Order does not matter: when several rules match a call, deny wins over ask, and ask wins over allow.
      </Notice>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
      {editing && (
        <RuleForm
          key={`${editing.base.version}:${editing.index ?? 'new'}`}
          title={
            editing.index === null || !editingRule ? 'Add rule' : `Edit rule ${ruleName(editingRule, editing.index)}`
          }
          initial={editingRule ? ruleToValues(editingRule) : emptyValues()}
          onSave={saveRule}
          onCancel={() => setEditing(null)}
        />
      )}
      <TextField
        label="Filter rules"
        type="search"
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
        className="rules-filter"
        autoComplete="off"
      />
      <RuleGroups
        rules={current.policy.rules}
        filter={filter}
        decidingIndex={decidingIndex}
        disabled={save.isPending}
        onEdit={(index) => {
          setMessage(null);
          setEditing({ base: current, index });
        }}
        onDelete={(index) => setDeleting({ base: current, index })}
      />
      <Dialog
        open={deleting !== null}
        title={deletingRule && deleting ? `Delete rule ${ruleName(deletingRule, deleting.index)}?` : 'Delete rule?'}
        description="The rule is removed in a new policy version; you can restore the old version from the history."
        onCancel={() => setDeleting(null)}
        footer={
          <>
            <Button onClick={() => setDeleting(null)}>Cancel</Button>
            <Button variant="danger" onClick={confirmDelete}>
              Delete
            </Button>
          </>
        }
      >
        {deletingRule && <code className="rules-code">{describeRule(deletingRule)}</code>}
      </Dialog>
    </Card>
  );
}
