import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { NotRepeated, StrictInt } from '../validation/strict-query';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 100;
const LIMIT_MESSAGE = `limit must be an integer from 1 to ${MAX_PAGE_SIZE}`;

/**
 * Cursor parameters shared by list endpoints. Cursors are validated by the service, which alone
 * knows whether an id names a row the caller may see (a bad one is INVALID_CURSOR, not a
 * validation error).
 */
export class CursorQueryDto {
  @ApiPropertyOptional({
    description: `Number of items, ${1}–${MAX_PAGE_SIZE}`,
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: LIMIT_MESSAGE })
  @Min(1, { message: LIMIT_MESSAGE })
  @Max(MAX_PAGE_SIZE, { message: LIMIT_MESSAGE })
  limit?: number;

  @ApiPropertyOptional({
    type: String,
    pattern: '^or_[1-9][0-9]*$',
    description:
      'Cursor: the last id of the current page, to fetch the next (older) page.',
    example: 'or_123',
  })
  @IsOptional()
  starting_after?: unknown;

  @ApiPropertyOptional({
    type: String,
    pattern: '^or_[1-9][0-9]*$',
    description:
      'Cursor: the first id of the current page, to fetch the previous (newer) page. Wins when both cursors are given.',
    example: 'or_456',
  })
  @IsOptional()
  ending_before?: unknown;
}
