import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * A new endpoint's signing secret: `whsec_` and 32 random bytes in base64, the form Standard
 * Webhooks libraries take as it is (they decode the part after `whsec_` into the HMAC key).
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/**
 * The headers that sign one delivery, both ways (docs/API.md, "Webhooks"), so that Ticket
 * Tailor's receivers and Standard Webhooks libraries verify it unchanged:
 *
 * - `Tickettailor-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of t followed by the body>`,
 *   keyed with the whole secret string, as Ticket Tailor signs;
 * - `webhook-id` (the event's `wh_` id), `webhook-timestamp` and `webhook-signature`
 *   (`v1,<base64>`), made by the standardwebhooks package, keyed with the bytes after `whsec_`.
 */
export function signDelivery(
  secret: string,
  webhookId: string,
  body: string,
  at: Date,
): Record<string, string> {
  const t = Math.floor(at.getTime() / 1000);
  const hex = createHmac('sha256', secret).update(`${t}${body}`).digest('hex');
  return {
    'Tickettailor-Webhook-Signature': `t=${t},v1=${hex}`,
    'webhook-id': webhookId,
    'webhook-timestamp': String(t),
    'webhook-signature': new Webhook(secret).sign(webhookId, at, body),
  };
}
