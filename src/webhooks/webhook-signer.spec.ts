import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookSecrets } from './webhook-secrets';
import { newWebhookSecret, signDelivery } from './webhook-signer';

describe('signDelivery', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9fW8i9pWWWQ=';
  const body = '{"id":"wh_7","event":"ORDER.CREATED"}';
  const at = new Date(1_767_000_000_000);

  it("signs Ticket Tailor's way: hex HMAC-SHA256 of t and the body, keyed with the whole secret", () => {
    const headers = signDelivery(secret, 'wh_7', body, at);
    const expected = createHmac('sha256', secret)
      .update(`1767000000${body}`)
      .digest('hex');
    expect(headers['Tickettailor-Webhook-Signature']).toBe(
      `t=1767000000,v1=${expected}`,
    );
  });

  it("signs Standard Webhooks' way, as its library verifies", () => {
    const headers = signDelivery(secret, 'wh_7', body, new Date());
    expect(headers['webhook-id']).toBe('wh_7');
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() =>
      new Webhook(newWebhookSecret()).verify(body, headers),
    ).toThrow();
  });
});

describe('WebhookSecrets', () => {
  const key = Buffer.alloc(32, 7);

  it('seals with AES-256-GCM under the key, and opens what it sealed', () => {
    const secret = newWebhookSecret();
    const sealed = new WebhookSecrets(key).seal(secret);
    expect(sealed).toMatch(/^aes256gcm:/);
    expect(sealed).not.toContain(secret.slice(6));
    expect(new WebhookSecrets(key).open(sealed)).toBe(secret);
  });

  it('cannot open a secret sealed under another key, or changed, or without a key', () => {
    const sealed = new WebhookSecrets(key).seal(newWebhookSecret());
    expect(() =>
      new WebhookSecrets(Buffer.alloc(32, 8)).open(sealed),
    ).toThrow();
    const parts = sealed.split(':');
    parts[3] = Buffer.from('tampered').toString('base64');
    expect(() => new WebhookSecrets(key).open(parts.join(':'))).toThrow();
    expect(() => new WebhookSecrets(undefined).open(sealed)).toThrow(
      /WEBHOOK_SECRET_KEY is not set/,
    );
  });

  it('keeps a secret as it is without a key (development), tagged so', () => {
    const secrets = new WebhookSecrets(undefined);
    expect(secrets.seal('whsec_x')).toBe('plain:whsec_x');
    expect(secrets.open('plain:whsec_x')).toBe('whsec_x');
  });
});
