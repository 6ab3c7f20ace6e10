import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ErrorCode } from './error-codes';

export class FieldErrorDto {
  @ApiProperty()
  field: string;

  @ApiProperty({ type: [String] })
  messages: string[];
}

/** The one body of every non-2xx response (docs/API.md, Errors). */
export class ErrorBodyDto {
  @ApiProperty({ description: 'The HTTP status code.', example: 400 })
  status: number;

  @ApiProperty({ enum: Object.values(ErrorCode), example: 'VALIDATION_ERROR' })
  error_code: ErrorCode;

  @ApiProperty({ example: 'limit must be an integer from 1 to 100' })
  message: string;

  @ApiPropertyOptional({
    type: [FieldErrorDto],
    description: 'Only for requests with a body; this API has none today.',
  })
  errors?: FieldErrorDto[];
}
