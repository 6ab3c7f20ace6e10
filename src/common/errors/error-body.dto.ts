import { IntegerEnum, OneOf, Text } from '../openapi/api-properties';
import { ErrorCode } from './error-codes';

/** Every status an error body can carry (docs/API.md, Errors: "Codes"). */
export const ERROR_STATUSES = [400, 401, 404, 405, 410, 429, 500, 503] as const;

/**
 * The one body of every non-2xx response (docs/API.md, Errors). The interface's per-field
 * `errors` array is only for request bodies, which this API never takes, so it never appears.
 */
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
