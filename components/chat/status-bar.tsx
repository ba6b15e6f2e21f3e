// The run's status line: always the mode (Auto-approve marked as the dangerous one it is), then
// the run's state, pending approvals and whether the event stream is reconnecting. A polite live
// region, so changes are announced.
import { cx } from '@/components/ui';
import type { TranscriptStatus } from '@/lib/client/chat/transcript';
import { DANGEROUS_MODE, modeLabel, type Mode } from '@/lib/contract';

const STATUS_TEXT: Record<TranscriptStatus, string> = {
  idle: 'No run yet',
  starting: 'Starting…',
  live: 'Running',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};

export function StatusBar({
  mode,
  runStatus,
  pending,
  reconnecting,
}: {
  mode: Mode;
  runStatus: TranscriptStatus;
  pending: number;
  reconnecting: boolean;
}) {
  const dangerous = mode === DANGEROUS_MODE;
  return (
    <div className={cx('chat-status', dangerous && 'chat-status--danger')} role="status" aria-label="Run status">
      <span className="chat-status__mode">{modeLabel(mode)}</span>
      {dangerous && <span className="chat-status__warning">⚠ Calls run without approval</span>}
      <span className="chat-status__item">
        {pending > 0 && runStatus === 'live' ? 'Waiting for approval' : STATUS_TEXT[runStatus]}
      </span>
      {pending > 0 && (
        <span className="chat-status__item">
          {pending === 1 ? '1 approval pending' : `${pending} approvals pending`}
        </span>
      )}
      {reconnecting && <span className="chat-status__item">Reconnecting…</span>}
    </div>
  );
}
