import { HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode } from './error-codes';

/** One field of a request body that failed validation, as the error body's `errors` lists it. */
export interface FieldError {
  field: string;
  messages: string[];
}

/**
 * What an error body carries besides status, code and message (docs/API.md, Errors: "Body"):
 * `errors` for a request body's fields, `check_in` for a scan the ticket's state refused.
 */
export interface ErrorDetails {
  errors?: FieldError[];
  check_in?: unknown;
  issued_ticket?: unknown;
}

/** The one error body's JSON text (docs/API.md, Errors): the exception filter's, and a scan's. */
export function errorBodyJson(
  status: number,
  code: ErrorCode,
  message: string,
  details: ErrorDetails = {},
): string {
  return JSON.stringify({ status, error_code: code, message, ...details });
}

/** A domain error: a status, a stable code, a message safe to show, and headers to send. */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly details: ErrorDetails = {},
  ) {
    super(message, status);
  }

  /** Its body, as the exception filter sends it. */
  bodyJson(): string {
    return errorBodyJson(
      this.getStatus(),
      this.code,
      this.message,
      this.details,
    );
  }

  static validation(message: string) {
    return new ApiError(
      HttpStatus.BAD_REQUEST,
      ErrorCode.VALIDATION_ERROR,
      message,
    );
  }

  /** A request body with bad fields: the message names the first, `errors` lists every one. */
  static invalidBody(errors: FieldError[]) {
    const [first] = errors;
    return new ApiError(
      HttpStatus.BAD_REQUEST,
      ErrorCode.VALIDATION_ERROR,
      first ? first.messages[0] : 'The request body is invalid',
      {},
      { errors },
    );
  }

  static forbidden(message: string) {
    return new ApiError(HttpStatus.FORBIDDEN, ErrorCode.FORBIDDEN, message);
  }

  /** A cursor that is malformed or names no `noun` of the caller's box office. */
  /** `keyed`: the list's order takes cursors that carry their key (`or_9@1786645321`) too. */
  static invalidCursor(
    parameter: string,
    noun: string,
    prefix: string,
    keyed = false,
    within = 'this box office',
  ) {
    const article = /^[aeiou]/.test(noun) ? 'an' : 'a';
    const forms = keyed
      ? `${prefix}<number>, or ${prefix}<number>@<unix seconds> as links give it`
      : `${prefix}<number>`;
    return new ApiError(
      HttpStatus.BAD_REQUEST,
      ErrorCode.INVALID_CURSOR,
      `${parameter} must be the id of ${article} ${noun} of ${within} (${forms})`,
    );
  }

  /** A change-feed position older than what the feed keeps (docs/API.md, "Change feed"). */
  static cursorExpired(message: string) {
    return new ApiError(HttpStatus.GONE, ErrorCode.CURSOR_EXPIRED, message);
  }

  static notFound(message: string) {
    return new ApiError(HttpStatus.NOT_FOUND, ErrorCode.NOT_FOUND, message);
  }

  static unauthorized() {
    return new ApiError(
      HttpStatus.UNAUTHORIZED,
      ErrorCode.UNAUTHORIZED,
      'Send a valid API key as the user name of HTTP Basic auth with an empty password: Authorization: Basic base64("<api key>:")',
      { 'WWW-Authenticate': 'Basic realm="Box Office API"' },
    );
  }
}
