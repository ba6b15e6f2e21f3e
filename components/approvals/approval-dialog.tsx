// The approval dialog: the oldest pending approval of the queue ("1 of 3"), with Approve Once,
// Always Allow (with the editable rules and their scope) and Deny (with a reason). Keyboard:
// Y approve once, A always allow, N or Escape deny (letters not while typing in a field).
// Previous/Next pick another pending approval, so they can be answered in any order. One
// <dialog> per relay (keyed), so each opens afresh with focus on its first action.
'use client';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Dialog, Notice, Revealed, TextField } from '@/components/ui';
import { useMe } from '@/lib/client/auth';
import { useApprovalStore } from '@/lib/client/chat/approval-store';
import { useDecideRelay } from '@/lib/client/chat/relays';
import { setRunMode } from '@/lib/client/chat/run';
import { clipText } from '@/lib/client/reveal';
import { useChatSettings } from '@/lib/client/chat/settings-store';
import type { GrantScope, RelayRequest, RelayResponse } from '@/lib/contract';
import { ApprovalDetails } from './approval-details';
import { QueueNotice } from './queue-notice';
import { RuleEditorInline, editedRules, emptyPatterns } from './rule-editor-inline';
import { useFocusReturn } from './use-focus-return';
import './approvals.css';

/** The prompt repeats the parameters, which the details show in full (a write's content can be megabytes). */
const PROMPT_LIMIT = 240;

export function ApprovalDialog() {
  const queue = useApprovalStore((s) => s.queue);
  const [selected, setSelected] = useState<string>();
  // The chosen one while it is pending, else the oldest.
  const index = Math.max(0, queue.findIndex((r) => r.id === selected));
  const current = queue[index];
  useFocusReturn(current !== undefined);
  if (!current) return null;
  const go = (to: number) => setSelected(queue[to]?.id);
  return (
    <ApprovalPrompt
      key={current.id}
      relay={current}
      position={index + 1}
      total={queue.length}
      onPrevious={index > 0 ? () => go(index - 1) : undefined}
      onNext={index < queue.length - 1 ? () => go(index + 1) : undefined}
    />
  );
}

interface PromptProps {
  relay: RelayRequest;
  position: number;
  total: number;
  onPrevious?: () => void;
  onNext?: () => void;
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  if (el instanceof HTMLInputElement) return !['radio', 'checkbox', 'button', 'submit'].includes(el.type);
  return el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || el.isContentEditable;
}

function ApprovalPrompt({ relay, position, total, onPrevious, onNext }: PromptProps) {
  const decide = useDecideRelay();
  const submitting = useApprovalStore((s) => Boolean(s.submitting[relay.id]));
  const [reason, setReason] = useState('');
  const [patterns, setPatterns] = useState<Record<string, string>>({});
  const [scope, setScope] = useState<GrantScope>('session');
  const [errors, setErrors] = useState<string[]>([]);
  const [modeError, setModeError] = useState<string>();
  const actions = useRef<HTMLDivElement>(null);
  // Only those who may manage grants may edit a suggested rule or grant it to everyone.
  const canEditGrants = useMe().data?.permissions.includes('grants:manage') ?? false;

  useEffect(() => {
    // After the dialog (a child) has called showModal: start on the first action.
    actions.current?.querySelector('button')?.focus({ preventScroll: true });
  }, []);

  const send = (response: RelayResponse) => {
    const store = useApprovalStore.getState();
    // Claimed synchronously: a second key press (or Escape and the dialog's cancel) sends nothing.
    if (store.submitting[relay.id]) return;
    store.startSubmit(relay.id);
    decide.mutate({ relay, response });
  };
  const approveOnce = () => send({ approved: true });
  const deny = () => send({ approved: false, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  const alwaysAllow = () => {
    const empty = emptyPatterns(relay.suggestedRules, patterns);
    setErrors(empty);
    if (empty.length > 0) return;
    if (!canEditGrants) return send({ approved: true, always: true });
    const rules = editedRules(relay.suggestedRules, patterns);
    send({ approved: true, always: true, scope, ...(rules.length > 0 ? { rule: rules } : {}) });
  };
  const approveAll = async () => {
    setModeError(undefined);
    try {
      await setRunMode(relay.runId, 'bypassPermissions');
      useChatSettings.getState().setMode('bypassPermissions');
      approveOnce();
    } catch (error) {
      setModeError((error as Error).message);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Handled here (not only by the dialog's cancel) so Escape always means deny.
      event.preventDefault();
      deny();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    const action = key === 'y' ? approveOnce : key === 'a' ? alwaysAllow : key === 'n' ? deny : undefined;
    if (!action) return;
    event.preventDefault();
    action();
  };

  const failure = decide.error && !submitting ? decide.error.message : undefined;
  return (
    <Dialog
      open
      title="Permission required"
      description={<Revealed text={relay.prompt.length > PROMPT_LIMIT ? `${clipText(relay.prompt, PROMPT_LIMIT)}…` : relay.prompt} />}
      onCancel={deny}
      onKeyDown={onKeyDown}
      className="approval-dialog"
      footer={
        <div ref={actions} className="approval-actions">
          <Button variant="primary" onClick={approveOnce} disabled={submitting} aria-keyshortcuts="Y">
            Approve Once
          </Button>
          <Button onClick={alwaysAllow} disabled={submitting} aria-keyshortcuts="A">
            Always Allow
          </Button>
          <Button variant="danger" onClick={deny} disabled={submitting} aria-keyshortcuts="N Escape">
            Deny
          </Button>
          <Button variant="ghost" onClick={() => void approveAll()} disabled={submitting}>
            Approve all for this session
          </Button>
        </div>
      }
    >
      <div className="approval-queue">
        <span>{`${position} of ${total}`}</span>
        {total > 1 && (
          <span className="approval-queue__nav">
            <Button size="sm" variant="ghost" onClick={onPrevious} disabled={!onPrevious}>
              Previous
            </Button>
            <Button size="sm" variant="ghost" onClick={onNext} disabled={!onNext}>
              Next
            </Button>
          </span>
        )}
        <span>Keys: Y approve once · A always allow · N or Esc deny</span>
      </div>
      <QueueNotice />
      {failure && <Notice tone="danger">Could not send the decision: {failure}. Try again.</Notice>}
      {modeError && <Notice tone="danger">Could not switch to Auto-approve: {modeError}</Notice>}
      <ApprovalDetails relay={relay} />
      <RuleEditorInline
        rules={relay.suggestedRules}
        editable={canEditGrants}
        patterns={patterns}
        onPatternChange={(key, value) => setPatterns((p) => ({ ...p, [key]: value }))}
        scope={scope}
        onScopeChange={setScope}
        errors={errors}
      />
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} hint="Sent to the agent when you deny." autoComplete="off" />
    </Dialog>
  );
}
