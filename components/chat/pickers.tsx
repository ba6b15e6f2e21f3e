// The agent profile and mode pickers. The agent applies to the next run; the mode applies to the
// live run at once (POST /api/runs/:id/mode) or else to the next run. Each mode is explained in
// one line under the picker; switching to Auto-approve asks for a confirmation first.
'use client';
import { useState } from 'react';
import { Button, Dialog, SelectField } from '@/components/ui';
import { useAgents } from '@/lib/client/chat/agents';
import { DANGEROUS_MODE, MODE_DESCRIPTIONS, MODES, modeLabel, type Mode } from '@/lib/contract';

export function AgentPicker({ value, onChange }: { value: string; onChange(agent: string): void }) {
  const agents = useAgents();
  const list = agents.data?.agents ?? [];
  const selected = value || agents.data?.defaultAgent || '';
  const options =
    list.length > 0
      ? list.map((a) => ({ value: a.name, label: a.name }))
      : [{ value: '', label: agents.isError ? 'Default (profiles unavailable)' : 'Loading…' }];
  const description = list.find((a) => a.name === selected)?.description;
  return (
    <SelectField
      label="Agent"
      value={selected}
      options={options}
      disabled={list.length === 0}
      hint={description}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

export function ModePicker({
  value,
  onChange,
  disabled,
}: {
  value: Mode;
  onChange(mode: Mode): void;
  disabled?: boolean;
}) {
  const [confirming, setConfirming] = useState(false);
  const choose = (next: Mode) => {
    if (next === DANGEROUS_MODE && value !== DANGEROUS_MODE) setConfirming(true);
    else onChange(next);
  };
  return (
    <>
      <SelectField
        label="Mode"
        value={value}
        disabled={disabled}
        hint={MODE_DESCRIPTIONS[value]}
        options={MODES.map((m) => ({ value: m, label: modeLabel(m) }))}
        onChange={(e) => choose(e.target.value as Mode)}
      />
      <Dialog
        open={confirming}
        title={`Switch to ${modeLabel(DANGEROUS_MODE)}?`}
        description={MODE_DESCRIPTIONS[DANGEROUS_MODE]}
        onCancel={() => setConfirming(false)}
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Keep {modeLabel(value)}</Button>
            <Button
              variant="danger"
              onClick={() => {
                setConfirming(false);
                onChange(DANGEROUS_MODE);
              }}
            >
              Switch to {modeLabel(DANGEROUS_MODE)}
            </Button>
          </>
        }
      >
        <p>
          Calls that would ask for approval will run without anyone seeing them first, in this run and the next ones
          started from this chat, until you switch back.
        </p>
      </Dialog>
    </>
  );
}
