import { ArrayOf, IntegerEnum, OneOf, Text } from '../openapi/api-properties';
import { ErrorCode } from './error-codes';

/** Every status an error body can carry (docs/API.md, Errors: "Codes"). */
export const ERROR_STATUSES = [
  400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429, 500, 503,
] as const;

/** One field of a request body that failed validation. */
export class FieldErrorDto {
  @Text(100, {
    description:
      'The field, as the request named it (a name that is not plain text is not repeated)',
    pattern: '^[\\x20-\\x7e]+$',
    example: 'quantity',
  })
  field: string;

  @ArrayOf(String, 10, {
    items: { maxLength: 500 },
    description: 'What is wrong with it',
    example: ['quantity must be 1 (check in) or -1 (check out)'],
  })
  messages: string[];
}

/** The one body of every non-2xx response (docs/API.md, Errors). */
export class ErrorBodyDto {
  @IntegerEnum(ERROR_STATUSES, {
    description: 'The HTTP status code, repeated',
    example: 400,
  })
  status: number;

  @OneOf(Object.values(ErrorCode), { example: 'VALIDATION_ERROR' })
  error_code: ErrorCode;

  @Text(500, {
    description:
      'What was wrong and, where useful, what to send instead. Client text is repeated only when short and plain.',
    example: 'limit must be an integer from 1 to 100',
  })
  message: string;
}

/**
 * The error body of a request body with bad fields: `errors` has one entry per field, and the
 * message is the first entry's first message.
 */
export class InvalidBodyDto extends ErrorBodyDto {
  @ArrayOf(FieldErrorDto, 10, {
    description: 'Each bad field, once, with what is wrong with it',
  })
  errors: FieldErrorDto[];
}
