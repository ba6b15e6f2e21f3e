// The message box, pinned to the bottom of the chat: Enter sends, Shift+Enter adds a line (one
// instruction per line for the offline model), Ctrl/Cmd+Enter sends too. Enter while an input
// method is composing belongs to the IME. While the agent works the box waits and Stop cancels
// the run (the same cancel as the runs page's).
'use client';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Button, TextArea } from '@/components/ui';

export interface ComposerProps {
  busy: boolean;
  onSend(text: string): void;
  /** Shown while `busy`: stops the run. */
  onStop?: () => void;
  stopping?: boolean;
}

export function Composer({ busy, onSend, onStop, stopping }: ComposerProps) {
  const [text, setText] = useState('');
  const form = useRef<HTMLFormElement>(null);
  // Focused on load, so a user can type at once (an approval dialog takes focus when it opens).
  useEffect(() => form.current?.querySelector('textarea')?.focus(), []);
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || !text.trim()) return;
    onSend(text.trim());
    setText('');
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.altKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };
  return (
    <form ref={form} className="chat-composer" onSubmit={submit} aria-label="Send a message">
      <TextArea
        label="Message"
        value={text}
        rows={2}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        hint="One instruction per line, e.g. $ ls or read notes.md. Enter sends, Shift+Enter adds a line."
      />
      <div className="chat-composer__row">
        <p className="chat-composer__hint" aria-live="polite">
          {busy ? 'The agent is working; send your next message when it is done, or stop the run.' : ''}
        </p>
        <div className="chat-composer__actions">
          {busy && onStop && (
            <Button type="button" variant="danger" onClick={onStop} disabled={stopping}>
              Stop
            </Button>
          )}
          <Button type="submit" variant="primary" disabled={busy || !text.trim()}>
            Send
          </Button>
        </div>
      </div>
    </form>
  );
}
