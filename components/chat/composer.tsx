// The message box: Ctrl/Cmd+Enter or the Send button sends; Enter is a plain newline (one
// instruction per line for the offline model). Sending waits while a run is still going.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, TextArea } from '@/components/ui';

export function Composer({ busy, onSend }: { busy: boolean; onSend(text: string): void }) {
  const [text, setText] = useState('');
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (busy || !text.trim()) return;
    onSend(text.trim());
    setText('');
  };
  return (
    <form className="chat-composer" onSubmit={submit} aria-label="Send a message">
      <TextArea
        label="Message"
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
        }}
        hint="One instruction per line, e.g. $ ls or read notes.md. Ctrl+Enter (⌘+Enter) sends."
      />
      <div className="chat-composer__row">
        <p className="chat-composer__hint" aria-live="polite">
          {busy ? 'The agent is working; send your next message when it is done, or cancel the run.' : ''}
        </p>
        <Button type="submit" variant="primary" disabled={busy || !text.trim()}>
          Send
        </Button>
      </div>
    </form>
  );
}
