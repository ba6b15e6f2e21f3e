// The reason a person gives with a decision, as the approval dialog and the inbox both ask for it:
// sent to the agent on a denial, and Enter (outside an IME composition, without Shift) denies.
import { TextField } from '@/components/ui';

export function ReasonField({
  value,
  onChange,
  onDeny,
}: {
  value: string;
  onChange: (reason: string) => void;
  onDeny: () => void;
}) {
  return (
    <TextField
      label="Reason"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
        e.preventDefault();
        onDeny();
      }}
      hint="Sent to the agent when you deny (Enter denies)."
      autoComplete="off"
    />
  );
}
