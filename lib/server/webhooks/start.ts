// The webhook sender as the server runs it: secrets sealed under the server secret, links to
// GATEHOUSE_PUBLIC_URL (else this process's own address), errors logged by message only.
import type { Queries } from '../../db';
import type { Config } from '../config';
import { SecretBox } from './secret-box';
import { WebhookSender } from './sender';

export function startWebhooks({ q, config, sessionSecret }: { q: Queries; config: Config; sessionSecret: string }) {
  const ownPort = Number(process.env.PORT ?? 3000);
  const publicUrl = config.publicUrl ?? `http://127.0.0.1:${ownPort}`;
  const box = new SecretBox(sessionSecret);
  let errors = 0;
  const sender = new WebhookSender({
    q,
    box,
    config: config.webhooks,
    publicUrl,
    ownPort,
    onError: (error) => {
      if (errors++ % 100 === 0) console.error(`[gatehouse] webhooks: ${error.message} (${errors} error(s) so far)`);
    },
  });
  sender.start();
  return { sender, box, publicUrl, ownPort };
}
