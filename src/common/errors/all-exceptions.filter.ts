import {
  ArgumentsHost,
  Catch,
  ExceptionFilter,
  HttpStatus,
  Logger,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { ApiError, type ErrorDetails, errorBodyJson } from './api-error';
import { CODE_FOR_STATUS, ErrorCode } from './error-codes';
import { allowedMethods } from './route-methods';
import { CACHE_CONTROL } from '../http/cache-control';
import { requestIdOf } from '../http/request-id';
import { isDatabaseUnavailable } from './database-errors';
import { quoteIfSafe } from './safe-text';

/** While the database stays unreachable, its warning is logged at most this often. */
const OUTAGE_LOG_INTERVAL_MS = 10_000;

interface Described {
  status: number;
  code: ErrorCode;
  message: string;
  headers?: Readonly<Record<string, string>>;
  details?: ErrorDetails;
}

/**
 * The one place a non-2xx body is made (docs/API.md, Errors), whatever threw: routing, guards,
 * pipes, middleware, the database or a bug. Messages of unexpected errors never reach the client;
 * they are logged once, with the request id.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);
  private lastOutageLog = 0;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const described = this.describe(exception, request);

    // A 5xx ApiError (an instance shutting down: 503) is logged where it is decided.
    if (described.status >= 500 && !(exception instanceof ApiError)) {
      const requestId = requestIdOf(request);
      if (described.code === ErrorCode.SERVICE_UNAVAILABLE) {
        const now = Date.now();
        if (now - this.lastOutageLog >= OUTAGE_LOG_INTERVAL_MS) {
          this.lastOutageLog = now;
          this.logger.warn(
            `database unavailable (request ${requestId}): ${errorMessage(exception)}`,
          );
        }
      } else {
        this.logger.error(
          `unhandled error (request ${requestId}) on ${request.method} ${request.path}`,
          exception instanceof Error ? exception.stack : String(exception),
        );
      }
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    response.setHeader('Cache-Control', CACHE_CONTROL.error);
    for (const [name, value] of Object.entries(described.headers ?? {})) {
      response.setHeader(name, value);
    }
    response
      .status(described.status)
      .type('application/json')
      .send(
        errorBodyJson(
          described.status,
          described.code,
          described.message,
          described.details,
        ),
      );
  }

  private describe(exception: unknown, request: Request): Described {
    if (exception instanceof ApiError) {
      return {
        status: exception.getStatus(),
        code: exception.code,
        message: exception.message,
        headers: exception.headers,
        details: exception.details,
      };
    }
    // Our handlers throw ApiError, so any other 404 is the router's (no route for this path and
    // method, Nest's catch-all): 405 when the path exists for another method.
    if (httpStatusOf(exception) === HttpStatus.NOT_FOUND) {
      const allowed = allowedMethods(
        this.adapterHost.httpAdapter.getInstance(),
        request.path,
      );
      if (allowed.length > 0) {
        return {
          status: HttpStatus.METHOD_NOT_ALLOWED,
          code: ErrorCode.METHOD_NOT_ALLOWED,
          message: `${request.method} is not allowed on ${quoteIfSafe(request.path, 'this path')}; use ${allowed.join(', ')}`,
          headers: { Allow: allowed.join(', ') },
        };
      }
      return {
        status: HttpStatus.NOT_FOUND,
        code: ErrorCode.NOT_FOUND,
        message: `No resource at ${request.method} ${quoteIfSafe(request.path, 'this path')}`,
      };
    }
    // A path Express cannot percent-decode names no resource (e.g. /v1/orders/%E0%A4%A).
    if (isUndecodablePath(exception)) {
      return {
        status: HttpStatus.NOT_FOUND,
        code: ErrorCode.NOT_FOUND,
        message: 'No resource at this path: it is not valid percent-encoding',
      };
    }
    if (isDatabaseUnavailable(exception)) {
      return {
        status: HttpStatus.SERVICE_UNAVAILABLE,
        code: ErrorCode.SERVICE_UNAVAILABLE,
        message:
          'The service is temporarily unable to reach its database; retry shortly',
        headers: { 'Retry-After': '5' },
      };
    }
    const status = httpStatusOf(exception);
    if (status !== undefined && status >= 400 && status < 500) {
      // Framework and middleware 4xx (e.g. a malformed URL): their code, a generic message.
      const code = CODE_FOR_STATUS[status];
      return code
        ? { status, code, message: safeClientMessage(exception, status) }
        : {
            status: HttpStatus.BAD_REQUEST,
            code: ErrorCode.VALIDATION_ERROR,
            message: 'The request is malformed',
          };
    }
    return {
      status: HttpStatus.INTERNAL_SERVER_ERROR,
      code: ErrorCode.INTERNAL_SERVER_ERROR,
      message: 'An unexpected error occurred; it has been logged',
    };
  }
}

/**
 * Nest's HttpException, told by shape: @nestjs/core is ESM and can be loaded as a second copy
 * of @nestjs/common, in another realm under jest, so neither `instanceof HttpException` nor
 * `instanceof Error` is reliable.
 */
function isHttpException(
  exception: unknown,
): exception is { getStatus(): number; message: string; cause?: unknown } {
  return (
    typeof exception === 'object' &&
    exception !== null &&
    typeof (exception as { getStatus?: unknown }).getStatus === 'function' &&
    typeof (exception as { getResponse?: unknown }).getResponse === 'function'
  );
}

function isUndecodablePath(exception: unknown): boolean {
  // Express's router raises a URIError (status 400), which Nest wraps in a BadRequestException as
  // its cause. Told by name: it may come from another realm.
  const isUriError = (error: unknown) =>
    typeof error === 'object' &&
    error !== null &&
    (error as { name?: unknown }).name === 'URIError';
  return (
    isUriError(exception) ||
    (typeof exception === 'object' &&
      exception !== null &&
      isUriError((exception as { cause?: unknown }).cause))
  );
}

function httpStatusOf(exception: unknown): number | undefined {
  if (isHttpException(exception)) return exception.getStatus();
  if (typeof exception === 'object' && exception !== null) {
    const { status, statusCode } = exception as {
      status?: unknown;
      statusCode?: unknown;
    };
    if (typeof status === 'number') return status;
    if (typeof statusCode === 'number') return statusCode;
  }
  return undefined;
}

/** Nest's own 4xx exceptions carry safe, short messages; anything else gets a generic one. */
function safeClientMessage(exception: unknown, status: number): string {
  if (isHttpException(exception) && !(exception.cause instanceof Error)) {
    const message = exception.message;
    if (message && message.length <= 200) return message;
  }
  return status === HttpStatus.BAD_REQUEST
    ? 'The request is malformed'
    : 'Request refused';
}

function errorMessage(exception: unknown): string {
  return exception instanceof Error ? exception.message : String(exception);
}
