import { createHash, hash } from 'node:crypto';
import { HttpStatus } from '@nestjs/common';
import type { Row } from '../../database/row-reader';
import { type SqlDialect, SqlParams } from '../../database/sql-dialect';
import type { WriteWork } from '../../database/write-transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';

/**
 * `Idempotency-Key` (docs/API.md, "Retries: Idempotency-Key"), with the semantics of the IETF
 * draft and of Stripe's API: the first request made with a key, per API key, is answered as
 * usual and its answer kept for 24 hours in the database (table `idempotency_keys`), so that a
 * retry on any instance gets the same status and body with `Idempotent-Replayed: true` and writes
 * nothing. The key with another request is refused (422), and so is a retry while the first still
 * runs (409).
 *
 * Everything happens in the request's own write transaction, so that the answer is kept exactly
 * when what the request wrote is, and a request that fails keeps nothing:
 *
 * 1. `hold`, its first statement: on PostgreSQL a transaction-scoped advisory lock on the key,
 *    taken without waiting. Another request holding it is still running: 409 at once. It is let
 *    go when the transaction ends, however it ends (an instance that stops mid-request included).
 *    Where writes take turns whole (SQLite: SqlDialect.writesInTurn) no request can be mid-way,
 *    and nothing is sent.
 * 2. The request's work.
 * 3. `keepAnswer`: the answer's row, inserted. A row already there for the key, answered within
 *    24 hours, makes it throw KeyTaken: the transaction rolls back, writing nothing.
 *
 * A request that ends in KeyTaken, or in an error of its own (its work found a 404, say), then
 * reads the key's row, `keptAnswer`, outside the transaction: the first answer is replayed, or 422 or
 * 409 decided from it; with no row, the request's own outcome stands. So the common request,
 * whose key is new, sends one statement for its key (two on PostgreSQL, the first riding with
 * BEGIN) and no extra commit.
 */

/** How long an answer is kept and replayed. */
export const IDEMPOTENCY_TTL_S = 24 * 60 * 60;

/** An Idempotency-Key, and a scan's `local_unique_id`: 1 to 255 printable ASCII characters. */
export const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

/** A request made with an Idempotency-Key. */
export interface IdempotentRequest {
  apiKeyId: number;
  key: string;
  /** SHA-256 of what makes two requests the same one (see idempotentRequest). */
  fingerprint: string;
}

/** An answer as it was sent, and is sent again. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Thrown by `keepAnswer` when the key already has a row: the request's transaction rolls back, and
 * `keptAnswer` says what to answer.
 */
export class KeyTaken extends Error {
  constructor() {
    super('The Idempotency-Key has an answer kept already');
  }
}

/**
 * The Idempotency-Key a request came with, or null without one. Checked before anything else of
 * the request (docs/API.md, "Precedence"). `header`: each of the request's Idempotency-Key
 * fields (`req.headersDistinct`); Node joins two fields into one value, `a, b`, which would
 * pass as a key of its own, so two fields are refused.
 */
export function idempotencyKeyOf(
  header: string | readonly string[] | undefined,
): string | null {
  if (header === undefined) return null;
  if (typeof header !== 'string') {
    if (header.length !== 1) {
      throw ApiError.validation('Idempotency-Key must be sent once');
    }
    return idempotencyKeyOf(header[0]);
  }
  if (!KEY_SHAPE.test(header)) {
    throw ApiError.validation(
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
    );
  }
  return header;
}

/**
 * The request that `key` makes idempotent. `request` is what the request asks for, after
 * validation: two requests are the same when it serialises to the same JSON.
 */
export function idempotentRequest(
  key: string,
  apiKeyId: number,
  request: unknown,
): IdempotentRequest {
  const fingerprint = hash('sha256', JSON.stringify(request));
  return { apiKeyId, key, fingerprint };
}

/** The header a replayed answer carries. */
const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The statements of each step, for one database. */
export class IdempotencyKeys {
  constructor(private readonly dialect: SqlDialect) {}

  /**
   * The first statement of the request's transaction: holds the key until the transaction ends,
   * or throws 409 while another request holds it (PostgreSQL; where writes take turns whole, no
   * other request can, and nothing is sent).
   *
   * The lock is taken by a number derived from the API key and the key (lockNumberOf), written
   * into the statement as a literal: a statement without parameters rides with the
   * transaction's BEGIN, in one round trip (write-transaction.ts).
   */
  *hold(request: IdempotentRequest): WriteWork<void> {
    if (this.dialect.writesInTurn) return;
    const [row] = yield {
      sql: `SELECT pg_try_advisory_xact_lock(${lockNumberOf(request)}) AS free`,
      params: [],
    };
    if (row.free !== true) throw inUse();
  }

  /**
   * Keeps the answer, in the request's transaction, or throws KeyTaken when the key has a row
   * another request kept within 24 hours; an older row is taken over. The claim columns of
   * earlier releases are left out (migration IdempotencyWithoutClaims).
   */
  *keepAnswer(
    request: IdempotentRequest,
    response: StoredResponse,
  ): WriteWork<void> {
    const now = this.dialect.now;
    const p = new SqlParams(this.dialect);
    const kept = yield {
      sql: `INSERT INTO idempotency_keys AS k (api_key_id, idempotency_key, request_hash,
              created_at, status, response_headers, response_body)
            VALUES (${p.add(request.apiKeyId)}, ${p.add(request.key)},
              ${p.add(request.fingerprint)}, ${now}, ${p.add(response.status)},
              ${p.add(JSON.stringify(response.headers))}, ${p.add(response.body)})
            ON CONFLICT (api_key_id, idempotency_key) DO UPDATE
              SET request_hash = excluded.request_hash, created_at = excluded.created_at,
                  status = excluded.status, response_headers = excluded.response_headers,
                  response_body = excluded.response_body
              WHERE k.created_at <= ${now} - ${p.add(IDEMPOTENCY_TTL_S)}
            RETURNING status`,
      params: p.values,
    };
    if (kept.length !== 1) throw new KeyTaken();
  }

  /**
   * After a request with this key ended without keeping an answer (KeyTaken, or an error of its
   * own): the first request's answer to replay; 422 when the key came with another request; null
   * when the key has no live row (the request's own outcome stands). A row without an answer is
   * a claim of a release two before this one, whose request may still run: 409, never replayed
   * (migration IdempotencyWithoutClaims deleted those past their lease).
   */
  *keptAnswer(request: IdempotentRequest): WriteWork<StoredResponse | null> {
    const now = this.dialect.now;
    const p = new SqlParams(this.dialect);
    const [row] = yield {
      sql: `SELECT request_hash, created_at, status, response_headers, response_body,
              ${now} AS now
            FROM idempotency_keys
            WHERE api_key_id = ${p.add(request.apiKeyId)}
              AND idempotency_key = ${p.add(request.key)}`,
      params: p.values,
    };
    if (row === undefined) return null;
    const clock = Number(row.now);
    if (Number(row.created_at) <= clock - IDEMPOTENCY_TTL_S) return null;
    if (row.request_hash !== request.fingerprint) throw reused();
    if (row.status === null) throw inUse();
    return storedResponse(row);
  }
}

/**
 * The advisory lock's number for a key: the first 64 bits of SHA-256 over the API key's id and
 * the key, as a signed integer. Two keys that share it (one pair in 2^64) only make each other
 * get a 409 while both run. One 64-bit key is a lock space of its own: the sync horizon's
 * announcements, two 32-bit keys (sync-horizon.ts), never meet it.
 */
export function lockNumberOf(request: IdempotentRequest): bigint {
  const digest = createHash('sha256')
    .update(`${request.apiKeyId}\u0000${request.key}`)
    .digest();
  return digest.readBigInt64BE(0);
}

function storedResponse(row: Row): StoredResponse {
  return {
    status: Number(row.status),
    headers: {
      ...(JSON.parse(String(row.response_headers)) as Record<string, string>),
      [REPLAYED_HEADER]: 'true',
    },
    body: String(row.response_body),
  };
}

/** 409: another request with the key still runs. */
export function inUse(): ApiError {
  return new ApiError(
    HttpStatus.CONFLICT,
    ErrorCode.IDEMPOTENCY_KEY_IN_USE,
    'A request with this Idempotency-Key is still being processed; retry it in a moment',
    { 'Retry-After': '1' },
  );
}

function reused(): ApiError {
  return new ApiError(
    HttpStatus.UNPROCESSABLE_ENTITY,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    'This Idempotency-Key was sent with a different request in the last 24 hours; use a new key for a new request',
  );
}
