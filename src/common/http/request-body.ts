import { HttpStatus } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { ApiError } from '../errors/api-error';
import { ErrorCode } from '../errors/error-codes';
import { type ExpressLike, routedFor } from '../errors/route-methods';
import { quoteIfSafe } from '../errors/safe-text';
import { droppedFormFields, repeatedJsonKey } from './repeated-fields';

/**
 * The largest request body read (docs/API.md, Limits; docs/DESIGN.md, "The body limit fits the
 * largest valid write"): every valid request fits, as JSON.stringify or URLSearchParams writes it.
 * The largest is a webhook endpoint's create as form fields: a URL of 2,048 ASCII characters,
 * each percent-encoded to 3 bytes, a description of 500 characters of up to 9 bytes each, every
 * event and a local_unique_id, under 12 KB (test/webhooks.e2e-spec.ts builds it). A scan's body
 * is a few hundred bytes.
 */
export const MAX_BODY_BYTES = 16_384;

/** Most form fields a body may have (a scan has at most five, an issue at most five). */
export const MAX_FORM_FIELDS = 20;

/** The media types a body may have (docs/API.md, "POST /v1/check_ins"). */
export const BODY_TYPES = [
  'application/json',
  'application/x-www-form-urlencoded',
] as const;

/**
 * Reads the body of a request to a route that takes one (a POST route: `POST /v1/check_ins`),
 * from a caller with a valid key: JSON or form fields, at most MAX_BODY_BYTES, into `req.body`.
 * Any other request's body is never read (the HTTP server limits what it may cost: see
 * http-server.ts), so a body sent to another route, or without a key, changes nothing: the
 * route's 405 or the guard's 401 comes first.
 *
 * A request without a body gets `{}` (its fields are then missing: 400). A body of another media
 * type is 415 UNSUPPORTED_MEDIA_TYPE, a larger one 413 PAYLOAD_TOO_LARGE, one that does not parse
 * 400 VALIDATION_ERROR, each in the one error body. So is a field the parser would lose without a
 * word (repeated-fields.ts): a JSON key given twice in one object (JSON.parse keeps the last), a
 * form field `__proto__` (the form parser drops it); a form field given twice is an array, which
 * the validation refuses.
 */
export function requestBody(app: ExpressLike): RequestHandler {
  const options = { limit: MAX_BODY_BYTES, inflate: false } as const;
  const parsers: Record<(typeof BODY_TYPES)[number], RequestHandler> = {
    'application/json': express.json({
      ...options,
      strict: true,
      verify: (_req, _res, raw: Buffer) => {
        const key = repeatedJsonKey(raw.toString('utf8'));
        if (key !== null) throw new RefusedBody(givenTwice(key));
      },
    }),
    // Plain `name=value` pairs (no nesting): a field given twice is an array, refused later.
    'application/x-www-form-urlencoded': express.urlencoded({
      ...options,
      extended: false,
      parameterLimit: MAX_FORM_FIELDS,
      verify: (_req, _res, raw: Buffer) => {
        const dropped = droppedFormFields(raw.toString('utf8'));
        if (dropped.length > 0) throw new RefusedBody(unknownFields(dropped));
      },
    }),
  };
  const takesPost = routedFor(app, 'POST');
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST' || !req.caller) return next();
    if (!takesPost(req.path)) return next();
    if (!hasBody(req)) {
      req.body = {};
      return next();
    }
    const type = BODY_TYPES.find((candidate) => req.is(candidate));
    if (type === undefined) {
      return next(
        new ApiError(
          HttpStatus.UNSUPPORTED_MEDIA_TYPE,
          ErrorCode.UNSUPPORTED_MEDIA_TYPE,
          `Send the body as ${BODY_TYPES.join(' or ')}`,
        ),
      );
    }
    parsers[type](req, res, (error?: unknown) =>
      next(error === undefined ? undefined : bodyError(error)),
    );
  };
}

/** Whether the request announces a body (a zero Content-Length is none). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return (
    req.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length !== '0')
  );
}

/**
 * A body a `verify` step refuses, carrying the API's error. body-parser decorates what `verify`
 * throws as an http-errors error (statusCode, expose), which Nest would turn into a plain
 * HttpException: the ApiError travels inside, and bodyError takes it out.
 */
class RefusedBody extends Error {
  constructor(readonly refusal: ApiError) {
    super(refusal.message);
  }
}

/** A field given twice, as the validation tells a form field given twice. */
function givenTwice(field: string): ApiError {
  const name = quoteIfSafe(field, '(a name that is not valid)');
  return ApiError.invalidBody([
    { field: name, messages: [`${name} must be given once`] },
  ]);
}

/** Fields no request has, as the validation tells an unknown field. */
function unknownFields(fields: string[]): ApiError {
  return ApiError.invalidBody(
    fields.map((field) => ({
      field: quoteIfSafe(field, '(a name that is not valid)'),
      messages: [
        `${quoteIfSafe(field, 'this field')} is not a field of this request`,
      ],
    })),
  );
}

/** body-parser's failures, as the API's errors (a `verify` step's refusal as it is). */
function bodyError(error: unknown): ApiError {
  if (error instanceof RefusedBody) return error.refusal;
  const type = (error as { type?: unknown }).type;
  switch (type) {
    case 'entity.too.large':
      return new ApiError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        ErrorCode.PAYLOAD_TOO_LARGE,
        `The request body must not exceed ${MAX_BODY_BYTES} bytes`,
      );
    case 'parameters.too.many':
      return new ApiError(
        HttpStatus.PAYLOAD_TOO_LARGE,
        ErrorCode.PAYLOAD_TOO_LARGE,
        `The request body must not have more than ${MAX_FORM_FIELDS} form fields`,
      );
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(
        HttpStatus.UNSUPPORTED_MEDIA_TYPE,
        ErrorCode.UNSUPPORTED_MEDIA_TYPE,
        'Send the body as UTF-8, without Content-Encoding',
      );
    case 'entity.parse.failed':
      return ApiError.validation('The request body must be a JSON object');
    default:
      return ApiError.validation('The request body did not arrive whole');
  }
}
