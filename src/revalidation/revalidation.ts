import { createHash } from 'node:crypto';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { type Observable, from, map, of, switchMap } from 'rxjs';
import { entityTags } from '../common/http/conditional-get';
import { versionPartOf, versionedEtag } from '../common/http/etag';
import { codeFingerprint } from './code-fingerprint';
import { DataVersion } from './data-version';
import { SYNC_WATERMARK_HEADER, inSyncMode } from '../sync/sync-mode';

const REVALIDATED_BY_DATA_VERSION = 'revalidatedByDataVersion';

interface Revalidation {
  /** A list that carries X-Sync-Watermark on every response, its 304s included. */
  readonly watermark: boolean;
  /**
   * A body that shows ticket types' held and in-basket quantities, which a sales system writes
   * without a change entry: the box office's stock version is part of its version.
   */
  readonly stock: boolean;
  /**
   * A body made of products, vouchers, discounts or waitlist signups, which make no change entry:
   * the box office's catalogue version is part of its version.
   */
  readonly catalogue: boolean;
}

/**
 * On a handler whose body is a function of its URL and the box office's data alone (no clock;
 * counters written without a change entry only with `stock`, catalogue rows only with
 * `catalogue`): a conditional request is answered
 * from the data version, without reading rows, while nothing changed (RevalidationInterceptor).
 */
export const RevalidatedByDataVersion = (options: Partial<Revalidation> = {}) =>
  SetMetadata(REVALIDATED_BY_DATA_VERSION, {
    watermark: false,
    stock: false,
    catalogue: false,
    ...options,
  } satisfies Revalidation);

/** The running code's fingerprint, read once per process (about 5 ms): it cannot change. */
let runningCode: string | undefined;

/** What a handler's body is replaced by when the answer is 304: res.send sends none. */
const NOT_MODIFIED = Buffer.alloc(0);

/**
 * 304 without building the body (docs/API.md, "A 304 without reading a row"). For a GET or HEAD with
 * `If-None-Match` to a handler marked RevalidatedByDataVersion, outside sync mode (whose pages
 * move with the horizon):
 *
 * 1. the box office's data version is read, before anything else, and made into the version
 *    part of the tag: a hash of it, the box office, the URL as sent and the code fingerprint;
 * 2. a tag in `If-None-Match` with that version part names this very body: the answer is 304 with
 *    it as the ETag (and, on a list that carries it, the sync watermark, read in the same
 *    statement as the version), and the handler does not run;
 * 3. otherwise the handler runs and the response's ETag is `"<bytes>.<version>"`; res.send still
 *    answers 304 when the bytes are the same as an old tag's (conditional-get.ts).
 *
 * Reading the version first makes a stale 304 impossible: a write committed after it moves the
 * version, so a tag issued with a body that missed the write never matches again. A request
 * without `If-None-Match` is not touched: its ETag stands for the bytes, and its first
 * revalidation earns the versioned tag.
 */
@Injectable()
export class RevalidationInterceptor implements NestInterceptor {
  private readonly code = (runningCode ??= codeFingerprint());

  constructor(
    private readonly reflector: Reflector,
    private readonly versions: DataVersion,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const revalidation =
      context.getType() === 'http'
        ? this.reflector.get<Revalidation | undefined>(
            REVALIDATED_BY_DATA_VERSION,
            context.getHandler(),
          )
        : undefined;
    if (revalidation === undefined) return next.handle();
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const ifNoneMatch = request.headers['if-none-match'];
    const tags = ifNoneMatch === undefined ? null : entityTags(ifNoneMatch);
    if (
      tags === null ||
      tags.length === 0 ||
      request.caller === undefined ||
      (request.method !== 'GET' && request.method !== 'HEAD') ||
      inSyncMode(request.query)
    ) {
      return next.handle();
    }
    const boxOfficeId = request.caller.boxOfficeId;
    const read = this.versions.of(boxOfficeId, {
      stock: revalidation.stock,
      catalogue: revalidation.catalogue,
      horizon: revalidation.watermark,
    });
    return from(read).pipe(
      switchMap(({ version: dataVersion, horizon }) => {
        const version = this.versionPart(boxOfficeId, dataVersion, request);
        const known = tags.find((tag) => versionPartOf(tag) === version);
        if (known === undefined) {
          return next.handle().pipe(
            map((body: unknown) => {
              if (Buffer.isBuffer(body)) {
                response.setHeader('ETag', versionedEtag(body, version));
              }
              return body;
            }),
          );
        }
        response.setHeader('ETag', known.replace(/^W\//, ''));
        if (horizon !== undefined) {
          response.setHeader(SYNC_WATERMARK_HEADER, String(horizon));
        }
        return of(NOT_MODIFIED);
      }),
    );
  }

  private versionPart(
    boxOfficeId: number,
    dataVersion: string,
    request: Request,
  ): string {
    return createHash('sha256')
      .update(`${this.code}\n${boxOfficeId}\n${dataVersion}\n`)
      .update(request.originalUrl)
      .digest('base64url')
      .slice(0, 22);
  }
}
