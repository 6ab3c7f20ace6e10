import { HttpException, HttpStatus } from '@nestjs/common';
import { ErrorCode } from './error-codes';

/** A domain error: a status, a stable code, a message safe to show, and headers to send. */
export class ApiError extends HttpException {
  constructor(
    status: HttpStatus,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message, status);
  }

  static validation(message: string) {
    return new ApiError(
      HttpStatus.BAD_REQUEST,
      ErrorCode.VALIDATION_ERROR,
      message,
    );
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
