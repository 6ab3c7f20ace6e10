import { hash, randomUUID } from 'node:crypto';
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
 * The steps are WriteWork. The claim is committed before the request's work, so that a retry
 * meanwhile sees it (and gets 409); each of its statements may commit on its own
 * (statementWrites), since each decides from what it finds and a takeover rechecks the claim it
 * replaces. The answer is stored in the request's own write transaction, so that it is kept
 * exactly when what the request wrote is. Where writes take turns whole (SQLite:
 * SqlDialect.writesInTurn) no retry can come between the steps, and all three may share the
 * request's transaction.
 */

/** How long an answer is kept and replayed. */
export const IDEMPOTENCY_TTL_S = 24 * 60 * 60;

/**
 * How long a claim whose request never finished (its instance stopped) blocks its key: a request
 * takes at most the statement timeouts of its few statements, far less.
 */
const IDEMPOTENCY_LEASE_S = 60;

const KEY_SHAPE = /^[\x20-\x7e]{1,255}$/;

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

/** This request runs (and stores its answer under `token`), or the first one's answer is sent. */
export type Claim = { token: string } | { replay: StoredResponse };

/**
 * The Idempotency-Key a request came with (the header as received), or null without one. Checked
 * before anything else of the request (docs/API.md, "Precedence").
 */
export function idempotencyKeyOf(header: string | undefined): string | null {
  if (header === undefined) return null;
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
   * Claims the key for this request, or finds the first request's answer. Throws 422 when the key
   * came with another request, 409 while the first one runs. A key past 24 hours is new again;
   * a claim left past the lease by a request that never finished is taken over.
   */
  *claim(request: IdempotentRequest): WriteWork<Claim> {
    // 122 random bits, from the pool randomUUID keeps (no system call per request).
    const token = randomUUID().replaceAll('-', '');
    const now = this.dialect.now;
    const insert = new SqlParams(this.dialect);
    const claimed = yield {
      sql: `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash, claim_token,
              claimed_at, created_at)
            VALUES (${insert.add(request.apiKeyId)}, ${insert.add(request.key)},
              ${insert.add(request.fingerprint)}, ${insert.add(token)}, ${now}, ${now})
            ON CONFLICT (api_key_id, idempotency_key) DO NOTHING
            RETURNING claim_token`,
      params: insert.values,
    };
    if (claimed.length === 1) return { token };

    const select = new SqlParams(this.dialect);
    const [row] = yield {
      sql: `SELECT request_hash, claim_token, claimed_at, created_at, status, response_headers,
              response_body, ${now} AS now
            FROM idempotency_keys
            WHERE api_key_id = ${select.add(request.apiKeyId)}
              AND idempotency_key = ${select.add(request.key)}`,
      params: select.values,
    };
    // Released by its request between the two statements (PostgreSQL): that request failed.
    if (row === undefined) throw inUse();
    const clock = Number(row.now);
    if (Number(row.created_at) <= clock - IDEMPOTENCY_TTL_S) {
      return yield* this.takeOver(request, row, token, clock);
    }
    if (row.request_hash !== request.fingerprint) throw reused();
    if (row.status !== null) return { replay: storedResponse(row) };
    if (Number(row.claimed_at) <= clock - IDEMPOTENCY_LEASE_S) {
      return yield* this.takeOver(request, row, token, Number(row.created_at));
    }
    throw inUse();
  }

  /**
   * Keeps the answer, in the write transaction of the request that holds the claim. A request
   * that no longer holds it (it ran past the lease and a retry took the key over, which now runs
   * the request itself) throws 409, so that its transaction rolls back and the request is done
   * once, by the retry.
   */
  *store(
    request: IdempotentRequest,
    token: string,
    response: StoredResponse,
  ): WriteWork<void> {
    const p = new SqlParams(this.dialect);
    const kept = yield {
      sql: `UPDATE idempotency_keys
            SET status = ${p.add(response.status)},
                response_headers = ${p.add(JSON.stringify(response.headers))},
                response_body = ${p.add(response.body)}
            WHERE api_key_id = ${p.add(request.apiKeyId)}
              AND idempotency_key = ${p.add(request.key)} AND claim_token = ${p.add(token)}
            RETURNING claim_token`,
      params: p.values,
    };
    if (kept.length !== 1) throw inUse();
  }

  /**
   * Gives the key back when the request ends without an answer worth keeping (bad input the
   * work found, a failure): a retry then runs again.
   */
  *release(request: IdempotentRequest, token: string): WriteWork<void> {
    const p = new SqlParams(this.dialect);
    yield {
      sql: `DELETE FROM idempotency_keys
            WHERE api_key_id = ${p.add(request.apiKeyId)}
              AND idempotency_key = ${p.add(request.key)} AND claim_token = ${p.add(token)}
              AND status IS NULL`,
      params: p.values,
    };
  }

  /** Claims a row found expired or abandoned, unless another request claimed it meanwhile. */
  private *takeOver(
    request: IdempotentRequest,
    row: Row,
    token: string,
    createdAt: number,
  ): WriteWork<Claim> {
    const p = new SqlParams(this.dialect);
    const taken = yield {
      sql: `UPDATE idempotency_keys
            SET request_hash = ${p.add(request.fingerprint)}, claim_token = ${p.add(token)},
                claimed_at = ${this.dialect.now}, created_at = ${p.add(createdAt)},
                status = NULL, response_headers = NULL, response_body = NULL
            WHERE api_key_id = ${p.add(request.apiKeyId)}
              AND idempotency_key = ${p.add(request.key)}
              AND claim_token = ${p.add(row.claim_token)}
            RETURNING claim_token`,
      params: p.values,
    };
    if (taken.length === 1) return { token };
    throw inUse();
  }
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

function inUse(): ApiError {
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
