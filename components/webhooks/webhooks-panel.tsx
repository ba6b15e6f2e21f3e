// Admins: the endpoints relay events are sent to. Register one (URL, events, JSON or Slack body;
// the signing secret is shown once), remove it, and read its delivery log.
'use client';
import { useState, type FormEvent } from 'react';
import { Button, Card, CardHeader, Notice, SelectField, TextField } from '@/components/ui';
import { SecretField } from '@/components/users/secret-field';
import { ApiError } from '@/lib/client/api';
import { useCreateWebhook, useDeleteWebhook, useWebhooks } from '@/lib/client/webhooks';
import { WEBHOOK_EVENT_TYPES, type CreatedWebhookEndpoint } from '@/lib/contract';
import { DeliveryLog } from './delivery-log';

export function WebhooksPanel() {
  const hooks = useWebhooks();
  const create = useCreateWebhook();
  const remove = useDeleteWebhook();
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState('json');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENT_TYPES]);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const error = create.error instanceof ApiError ? create.error : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    setCreated(null);
    create.mutate({ url, events, format }, { onSuccess: (hook) => (setCreated(hook), setUrl('')) });
  }

  return (
    <Card aria-labelledby="webhooks-heading">
      <CardHeader id="webhooks-heading" title="Webhooks" />
      <p>Each new, decided or expired approval is posted to these addresses, signed (see the README).</p>
      <form onSubmit={submit} aria-label="Add a webhook" noValidate className="webhooks-form">
        <TextField
          label="URL"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={error?.fieldMessage('url')}
          autoComplete="off"
        />
        <SelectField
          label="Body"
          value={format}
          onChange={(e) => setFormat(e.target.value)}
          options={[
            { value: 'json', label: 'JSON event' },
            { value: 'slack', label: 'Slack incoming webhook' },
          ]}
        />
        <fieldset>
          <legend>Events</legend>
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="webhooks-form__event">
              <input
                type="checkbox"
                checked={events.includes(type)}
                onChange={(e) => setEvents(e.target.checked ? [...events, type] : events.filter((t) => t !== type))}
              />{' '}
              {type}
            </label>
          ))}
          {error?.fieldMessage('events') && <p role="alert">{error.fieldMessage('events')}</p>}
        </fieldset>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          Add webhook
        </Button>
      </form>
      {create.error && !(error && error.fields.length > 0) && <Notice tone="danger">{create.error.message}</Notice>}
      {created && (
        <Notice tone="success">
          <SecretField
            label={`Signing secret of ${created.url}`}
            value={created.secret}
            hint="Copy it now: it is shown only once."
          />
        </Notice>
      )}
      {hooks.isError && <Notice tone="danger">Could not load the webhooks: {hooks.error.message}</Notice>}
      {hooks.data?.length === 0 && <p>No webhooks yet.</p>}
      <ul className="webhooks-list">
        {hooks.data?.map((hook) => (
          <li key={hook.id}>
            <p>
              <code>{hook.url}</code> · {hook.format === 'slack' ? 'Slack' : 'JSON'} · {hook.events.join(', ')}{' '}
              <Button
                size="sm"
                variant="danger"
                onClick={() => remove.mutate(hook.id)}
                aria-label={`Remove webhook ${hook.url}`}
              >
                Remove
              </Button>
            </p>
            <DeliveryLog endpointId={hook.id} url={hook.url} />
          </li>
        ))}
      </ul>
    </Card>
  );
}
