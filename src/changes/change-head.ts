import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  createParamDecorator,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import { type Observable, from, switchMap } from 'rxjs';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error';
import { type ReadRows, rowReader } from '../database/row-reader';
import { changeHead, changeId } from './change-feed';

/** The response header naming the newest entry a reader can see (docs/API.md, "Change feed"). */
export const CHANGE_HEAD_HEADER = 'X-Change-Head';

/** Each feed request's head, as ChangeHeadInterceptor read it. */
const heads = new WeakMap<Request, number>();

/**
 * On the change feed: reads the box office's head before anything else, the query's validation
 * included, and sends it as X-Change-Head. So every answer of the feed to a key carries it, its
 * errors too: a 410 tells the client to follow the feed from it, and a 400 for a position past it
 * names it. The handler takes the same head with @ChangeHead() and reads no entry past it.
 */
@Injectable()
export class ChangeHeadInterceptor implements NestInterceptor {
  private readonly read: ReadRows;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.read = rowReader(dataSource);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    const { caller } = request;
    // ApiKeyGuard has answered 401 before this runs; without a caller there is no feed to read.
    if (caller === undefined) throw ApiError.unauthorized();
    const office = caller.boxOfficeId;
    return from(changeHead(this.dataSource, office, this.read)).pipe(
      switchMap((head) => {
        heads.set(request, head);
        http
          .getResponse<Response>()
          .setHeader(CHANGE_HEAD_HEADER, changeId(head));
        return next.handle();
      }),
    );
  }
}

/** The head ChangeHeadInterceptor read for this request. */
export const ChangeHead = createParamDecorator(
  (_data: unknown, context: ExecutionContext): number => {
    const head = heads.get(context.switchToHttp().getRequest<Request>());
    if (head === undefined) {
      throw new Error('ChangeHead needs ChangeHeadInterceptor on the handler');
    }
    return head;
  },
);
