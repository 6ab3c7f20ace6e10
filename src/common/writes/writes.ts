import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { DataSource, QueryFailedError } from 'typeorm';
import type { Caller } from '../../auth/auth.service';
import { dialectFor } from '../../database/sql-dialect';
import {
  type RunWrite,
  type WriteWork,
  statementWrites,
  writeTransactions,
} from '../../database/write-transaction';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { CACHE_CONTROL } from '../http/cache-control';
import {
  IdempotencyKeys,
  KeyTaken,
  type StoredResponse,
  idempotentRequest,
  inUse,
} from '../idempotency/idempotency-keys';
import { retryKeyOf } from './retry-key';

/** What a write's answer is: its status, headers and body, as sent and as kept for a retry. */
export type WriteAnswer = StoredResponse;

/** A kept answer sent again to a retry (`Idempotent-Replayed: true`): nothing was written. */
export type ReplayedAnswer = WriteAnswer & { replayed: true };

/** One write, as its service hands it to Writes.run. */
export interface Write<A extends WriteAnswer = WriteAnswer> {
  /** The operation, `POST /v1/issued_tickets`: the same key with another operation is another request. */
  operation: string;
  /**
   * What the request asks for, after validation, without its retry key: two requests with one key
   * are the same request when it serialises to the same JSON.
   */
  request: Record<string, unknown>;
  /** Its unit of work, run in one write transaction (write-transaction.ts). */
  work: () => WriteWork<A>;
  /**
   * What the write waits for outside the database before its transaction (a webhook URL's host
   * resolved and its addresses checked): run only when the write runs. With a retry key, the
   * key's kept answer is looked for first, so that a retry is answered as it was, whatever this
   * would find now (the host resolving elsewhere, or not at all), without waiting for it. It
   * refuses with an ApiError, which keeps nothing.
   */
  prepare?: () => Promise<void>;
  /**
   * For an answer that holds a secret (a webhook endpoint's, shown once): how it is kept for a
   * retry (`seal`, the secret sealed as its own row keeps it) and sent again (`open`, the same
   * bytes as the first answer), so that the secret is never readable in `idempotency_keys`.
   */
  keptAs?: {
    seal: (answer: A) => WriteAnswer;
    open: (kept: WriteAnswer) => WriteAnswer;
  };
}

/** How a request sent its retry key: each Idempotency-Key header field, and `local_unique_id`. */
export interface RetryKeys {
  header: readonly string[] | undefined;
  localUniqueId: string | undefined;
}

/** The retry keys a write request sent: each Idempotency-Key header field, and the body's. */
export function retryKeysOf(
  req: Request,
  body?: { local_unique_id?: string },
): RetryKeys {
  return {
    header: req.headersDistinct['idempotency-key'],
    localUniqueId: body?.local_unique_id,
  };
}

/**
 * The machinery every write shares (docs/DEVELOPMENT.md, "Adding a write"), so that a write is a
 * DTO, a unit of work and one controller method:
 *
 * - one write transaction, on either database (writeTransactions): PostgreSQL's retryable
 *   refusals (deadlock, serialization failure) are run again, and after the retries, like a lock
 *   or statement time-out, answered 503 with Retry-After by the exception filter, having written
 *   nothing (docs/API.md, Errors);
 * - with a retry key (Idempotency-Key, or the body's `local_unique_id`), the answer is kept in
 *   that same transaction, so that it is kept exactly when what the write wrote is: a retry
 *   within 24 hours gets it again with `Idempotent-Replayed: true` and writes nothing; the key
 *   with another request is refused 422, and while its first request runs 409
 *   (common/idempotency). A write that ends in an error of its own (400, 404) keeps nothing.
 *
 * A unit of work answers what the write's rules decide, refusals (409) included, so that a retry
 * gets the same refusal; what is not the write's to decide (a bad field, an unknown item) it
 * throws as an ApiError.
 */
@Injectable()
export class Writes {
  private readonly transaction: RunWrite;
  /** The key's kept answer, read after a write that kept none: a statement on its own. */
  private readonly statement: RunWrite;
  private readonly idempotency: IdempotencyKeys;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.transaction = writeTransactions(dataSource);
    this.statement = statementWrites(dataSource);
    this.idempotency = new IdempotencyKeys(dialectFor(dataSource.options.type));
  }

  /**
   * Runs the write `plan` makes for `caller` and answers it (send it with sendWriteAnswer): its
   * unit of work's answer, or a retry's kept one. The retry key is checked first, then `plan`
   * builds the write from the request (its ids: 404), as docs/API.md, "Precedence", orders them.
   * `plan` runs for a retry too, before its kept answer is found: what waits on the world outside
   * (a webhook URL's addresses) is the write's `prepare`, which a replayed retry never runs.
   */
  async run<A extends WriteAnswer>(
    caller: Caller,
    keys: RetryKeys,
    plan: () => Write<A> | Promise<Write<A>>,
  ): Promise<A | ReplayedAnswer> {
    try {
      return await this.answer(caller, keys, plan);
    } catch (error) {
      throw refusedWrite(error) ?? error;
    }
  }

  private async answer<A extends WriteAnswer>(
    caller: Caller,
    keys: RetryKeys,
    plan: () => Write<A> | Promise<Write<A>>,
  ): Promise<A | ReplayedAnswer> {
    const key = retryKeyOf(keys.header, keys.localUniqueId);
    const write = await plan();
    if (key === null) {
      await write.prepare?.();
      return this.transaction(write.work);
    }
    const retry = idempotentRequest(key, caller.apiKeyId, {
      operation: write.operation,
      ...write.request,
    });
    const { idempotency } = this;
    const seal = write.keptAs?.seal ?? ((answer: A) => answer);
    const open = write.keptAs?.open ?? ((kept: WriteAnswer) => kept);
    const replay = async (): Promise<ReplayedAnswer | null> => {
      const kept = await this.statement(() => idempotency.keptAnswer(retry));
      return kept === null ? null : { ...open(kept), replayed: true };
    };
    if (write.prepare !== undefined) {
      // The kept answer first (or the key's 422 or 409), then what the write waits for: one
      // statement more for such a write, none for the others, whose key is read after a failure.
      const replayed = await replay();
      if (replayed !== null) return replayed;
    }
    try {
      // Inside: a first request with this key that kept its answer meanwhile still decides.
      await write.prepare?.();
      return await this.transaction(function* () {
        yield* idempotency.hold(retry);
        const answer = yield* write.work();
        yield* idempotency.keepAnswer(retry, seal(answer));
        return answer;
      });
    } catch (error) {
      // Rolled back: the key's row, if another request kept one, decides (a retry of an answered
      // write, whatever this one found), else this request's own outcome stands.
      if (!(error instanceof KeyTaken || error instanceof ApiError))
        throw error;
      const replayed = await replay();
      if (replayed !== null) return replayed;
      if (error instanceof KeyTaken) throw inUse();
      throw error;
    }
  }
}

/**
 * PostgreSQL's refusals of a transaction that lost to another (deadlock_detected,
 * serialization_failure, lock_not_available): writeTransactions runs it again, and one still
 * refused after that wrote nothing and is answered 503, to be retried later (docs/API.md,
 * Errors), never a 500. A statement time-out is a 503 of the exception filter already.
 */
const REFUSED_STATES = new Set(['40P01', '40001', '55P03']);

/** The 503 of a write the database refused after its retries, or null for any other error. */
export function refusedWrite(error: unknown): ApiError | null {
  const cause = error instanceof QueryFailedError ? error.driverError : error;
  const code = (cause as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !REFUSED_STATES.has(code)) return null;
  return new ApiError(
    HttpStatus.SERVICE_UNAVAILABLE,
    ErrorCode.SERVICE_UNAVAILABLE,
    'The database refused the write, busy with others at the same moment; nothing was written, retry shortly',
    { 'Retry-After': '1' },
  );
}

/**
 * Sends a write's answer: its status and headers (`Location`, `Idempotent-Replayed`), and
 * `Cache-Control: no-store`, since an answer to a write is of its moment and no cache may reuse
 * it. Returns the body for the handler to return.
 */
export function sendWriteAnswer(res: Response, answer: WriteAnswer): Buffer {
  res.status(answer.status).set(answer.headers);
  res.setHeader('Cache-Control', CACHE_CONTROL.write);
  return Buffer.from(answer.body);
}
