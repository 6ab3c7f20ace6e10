import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * How an endpoint's signing secret is kept in `webhook_endpoints.secret` (docs/OPERATIONS.md,
 * "Webhooks"): with WEBHOOK_SECRET_KEY set, encrypted with AES-256-GCM under that key
 * (`aes256gcm:<iv>:<tag>:<ciphertext>`, base64 parts), so that the database alone, a backup or a
 * replica, cannot sign; without it, as it is (`plain:<secret>`), for development. The secret is
 * shown once, in the answer that creates the endpoint, and never logged.
 */
export class WebhookSecrets {
  constructor(private readonly key: Buffer | undefined) {}

  seal(secret: string): string {
    if (this.key === undefined) return `plain:${secret}`;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([
      cipher.update(secret, 'utf8'),
      cipher.final(),
    ]);
    return [
      'aes256gcm',
      iv.toString('base64'),
      cipher.getAuthTag().toString('base64'),
      sealed.toString('base64'),
    ].join(':');
  }

  /** The secret; throws when it was sealed under another key, or the key is not set. */
  open(stored: string): string {
    if (stored.startsWith('plain:')) return stored.slice('plain:'.length);
    const [scheme, iv, tag, sealed] = stored.split(':');
    if (scheme !== 'aes256gcm' || this.key === undefined) {
      throw new Error(
        'the endpoint secret is encrypted and WEBHOOK_SECRET_KEY is not set',
      );
    }
    const decipher = createDecipheriv(
      'aes-256-gcm',
      this.key,
      Buffer.from(iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64')),
      decipher.final(),
    ]).toString('utf8');
  }
}
