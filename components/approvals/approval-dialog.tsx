// The approval dialog: the oldest pending approval of the queue ("1 of 3"), headed by what the
// call does ("bash wants to run `ls -la`"). Approve Once; Always Allow only when the grant would
// cover this very call (else why not, and what would work); Deny (with the reason); "Approve this
// and all later calls (Auto-approve)", confirmed. No accidental approvals: decisions are ignored
// for a moment after a call appears and after each decision (`data-armed` says when they count),
// focus starts on the headline, not on an approving button. Keys: Y approve once, A always allow,
// N deny with the reason typed so far (letters not while typing in a field), Enter in the Reason
// field denies with it, Escape closes the dialog without deciding (a banner reopens it).
// Previous/Next pick another pending approval. One prompt per relay (keyed): each opens afresh.
// Edit turns the parameters into an editor (edit-call.tsx); Approve Once then sends the edited call.
// A call that needs several approvers shows who approved so far (quorum-status.tsx).
'use client';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Button, Dialog, Notice } from '@/components/ui';
import { useMe } from '@/lib/client/auth';
import { useApprovalStore } from '@/lib/client/chat/approval-store';
import { useDecideRelay } from '@/lib/client/chat/relays';
import type { GrantScope, RelayRequest, RelayResponse } from '@/lib/contract';
import { AlwaysAllowPanel } from './always-allow-panel';
import { EditCall } from './edit-call';
import { QuorumStatus } from './quorum-status';
import { useEditCheck } from './use-edit-check';
import { ApprovalDetails, ApprovalHeadline } from './approval-details';
import { APPROVE_ALL_LABEL, ApproveAllConfirm } from './approve-all';
import { PendingBanner } from './pending-banner';
import { QueueNotice } from './queue-notice';
import { ReasonField } from './reason-field';
import { editedRules, emptyPatterns } from './rule-editor-inline';
import { useAlwaysAllow } from './use-always-allow';
import { useArmed } from './use-armed';
import { useFocusReturn } from './use-focus-return';
import './approvals.css';

export function ApprovalDialog() {
  const queue = useApprovalStore((s) => s.queue);
  const dismissed = useApprovalStore((s) => s.dismissed);
  const [selected, setSelected] = useState<string>();
  // The chosen one while it is pending, else the oldest.
  const index = Math.max(
    0,
    queue.findIndex((r) => r.id === selected),
  );
  const current = queue[index];
  useFocusReturn(current !== undefined && !dismissed);
  if (!current) return null;
  if (dismissed) return <PendingBanner count={queue.length} />;
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
  const dismiss = useApprovalStore((s) => s.dismiss);
  const [reason, setReason] = useState('');
  const [patterns, setPatterns] = useState<Record<string, string>>({});
  const [scope, setScope] = useState<GrantScope>('session');
  const [errors, setErrors] = useState<string[]>([]);
  const [confirmingAll, setConfirmingAll] = useState(false);
  const headline = useRef<HTMLParagraphElement>(null);
  const { armed, isArmed, disarm } = useArmed();
  const me = useMe().data?.username;
  const progress = useApprovalStore((s) => s.progress[relay.id]);
  // Another approver's edit: the approvals so far are of the edited call, so that is the call shown.
  const shown = progress?.params ? { ...relay, params: progress.params, preview: undefined } : relay;
  // Edit: undefined while not editing; `null` while the text is not a parameter object.
  const [editing, setEditing] = useState<Record<string, unknown> | null>();
  const editCheck = useEditCheck(relay, editing ?? undefined);
  const editReady = editing === undefined || editCheck?.state === 'ok';
  const approvedAlready = me !== undefined && (progress?.approvals ?? []).some((a) => a.by === me);
  const editedParams = editing !== undefined && editCheck?.state === 'ok' ? { params: editCheck.params } : {};
  // Only those who may manage grants may edit a suggested rule or grant it to everyone.
  const canEditGrants = useMe().data?.permissions.includes('grants:manage') ?? false;
  const edited =
    canEditGrants && Object.keys(patterns).length > 0 && emptyPatterns(relay.suggestedRules, patterns).length === 0
      ? editedRules(relay.suggestedRules, patterns)
      : undefined;
  const changed = edited !== undefined && JSON.stringify(edited) !== JSON.stringify(relay.suggestedRules);
  const verdict = useAlwaysAllow(relay, changed ? edited : undefined);
  // While an edit is re-checked the button stays (disabled), so the layout does not jump.
  const offerAlways = verdict.covers && !verdict.checking;
  const showAlways = offerAlways || verdict.checking === true;

  useEffect(() => {
    // After the dialog (a child) has called showModal: start on what the call does, so a stray
    // Enter or Space approves nothing.
    headline.current?.focus({ preventScroll: true });
  }, []);

  const send = (response: RelayResponse) => {
    const store = useApprovalStore.getState();
    // Claimed synchronously: a second key press sends nothing; and the next decision waits a moment.
    if (!isArmed() || store.submitting[relay.id]) return;
    disarm();
    store.startSubmit(relay.id);
    decide.mutate({ relay, response });
  };
  const approveOnce = () => {
    if (!editReady || (approvedAlready && editing === undefined)) return;
    send({ approved: true, ...editedParams });
  };
  const deny = () => send({ approved: false, ...(reason.trim() ? { reason: reason.trim() } : {}) });
  const alwaysAllow = () => {
    if (!offerAlways) return;
    const empty = emptyPatterns(relay.suggestedRules, patterns);
    setErrors(empty);
    if (empty.length > 0) return;
    if (!editReady) return;
    if (!canEditGrants) return send({ approved: true, always: true, ...editedParams });
    const rules = editedRules(relay.suggestedRules, patterns);
    send({ approved: true, always: true, scope, ...(rules.length > 0 ? { rule: rules } : {}), ...editedParams });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key === 'Escape') {
      // Closing never decides: the call stays pending (the banner reopens it).
      event.preventDefault();
      if (confirmingAll) setConfirmingAll(false);
      else dismiss();
      return;
    }
    if (confirmingAll || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
    const key = event.key.toLowerCase();
    const action = key === 'y' ? approveOnce : key === 'a' ? alwaysAllow : key === 'n' ? deny : undefined;
    if (!action) return;
    event.preventDefault();
    action();
  };

  const blocked = submitting || !armed;
  const failure = decide.error && !submitting ? decide.error.message : undefined;
  return (
    <Dialog
      open
      title="Permission required"
      description={<ApprovalHeadline relay={shown} ref={headline} />}
      onCancel={() => (confirmingAll ? setConfirmingAll(false) : dismiss())}
      onKeyDown={onKeyDown}
      className="approval-dialog"
      data={{ armed: String(armed && !submitting) }}
      footer={
        confirmingAll ? (
          <ApproveAllConfirm relay={relay} onBack={() => setConfirmingAll(false)} />
        ) : (
          <div className="approval-footer">
            <ReasonField value={reason} onChange={setReason} onDeny={deny} />
            <div className="approval-actions">
              <Button
                variant="primary"
                onClick={approveOnce}
                disabled={blocked || !editReady || (approvedAlready && editing === undefined)}
                aria-keyshortcuts="Y"
              >
                {editing === undefined ? 'Approve Once' : 'Approve Edited'}
              </Button>
              {/* An outside call whose CLI can run no edit (place.editable null) offers none. */}
              {shown.place?.editable !== null && (
                <Button
                  variant="ghost"
                  onClick={() => setEditing(editing === undefined ? { ...shown.params } : undefined)}
                  disabled={blocked}
                  aria-expanded={editing !== undefined}
                >
                  {editing === undefined ? 'Edit' : 'Cancel Edit'}
                </Button>
              )}
              {showAlways && (
                <Button onClick={alwaysAllow} disabled={blocked || !offerAlways} aria-keyshortcuts="A">
                  Always Allow
                </Button>
              )}
              <Button variant="danger" onClick={deny} disabled={blocked} aria-keyshortcuts="N">
                Deny
              </Button>
              {relay.autoApprove === true && (
                <Button variant="ghost" onClick={() => setConfirmingAll(true)} disabled={blocked}>
                  {APPROVE_ALL_LABEL}
                </Button>
              )}
            </div>
          </div>
        )
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
        <span>Keys: Y approve once · A always allow · N deny · Esc close (decide later)</span>
      </div>
      <QueueNotice />
      {failure && <Notice tone="danger">Could not send the decision: {failure}. Try again.</Notice>}
      <QuorumStatus relay={relay} progress={progress} me={me} />
      <ApprovalDetails relay={shown} />
      {editing !== undefined && (
        <EditCall
          relay={shown}
          params={editing ?? shown.params}
          onChange={(params) => setEditing(params ?? null)}
          check={editing === null ? undefined : editCheck}
        />
      )}
      <AlwaysAllowPanel
        relay={relay}
        verdict={verdict}
        canEdit={canEditGrants}
        patterns={patterns}
        onPatternChange={(key, value) => setPatterns((p) => ({ ...p, [key]: value }))}
        scope={scope}
        onScopeChange={setScope}
        errors={errors}
      />
    </Dialog>
  );
}
