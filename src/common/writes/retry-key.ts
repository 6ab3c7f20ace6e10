import { ApiError } from '../errors/api-error';
import { idempotencyKeyOf } from '../idempotency/idempotency-keys';

/**
 * The key that makes a write safe to retry (docs/API.md, "Retries: Idempotency-Key"): the
 * Idempotency-Key header, else the body's `local_unique_id` (Ticket Tailor's retry key); null
 * with neither. `header`: each of the request's Idempotency-Key fields (`req.headersDistinct`),
 * checked by idempotencyKeyOf (its shape, and sent once) before anything else of the request
 * (docs/API.md, "Precedence"). Both given must agree. The key is not part of what the write
 * asks for: a retry may name it either way.
 */
export function retryKeyOf(
  header: readonly string[] | undefined,
  localUniqueId: string | undefined,
): string | null {
  const sent = idempotencyKeyOf(header);
  if (sent !== null && localUniqueId !== undefined && sent !== localUniqueId) {
    throw ApiError.invalidBody([
      {
        field: 'local_unique_id',
        messages: [
          'local_unique_id must equal the Idempotency-Key header when both are sent',
        ],
      },
    ]);
  }
  return sent ?? localUniqueId ?? null;
}
