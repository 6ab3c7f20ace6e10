import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
} from 'class-validator';
import { CursorQueryDto } from '../../common/pagination/cursor-query.dto';
import { NotRepeated, StrictInt } from '../../common/validation/strict-query';
import { ORDER_STATUSES, type OrderStatus } from '../entities/order.entity';

/** The created_at filters: parameter, SQL comparison, and what it means. */
export const CREATED_AT_FILTERS = [
  ['created_at', '=', 'equals'],
  ['created_at.gt', '>', 'is greater than'],
  ['created_at.gte', '>=', 'is greater than or equal to'],
  ['created_at.lt', '<', 'is less than'],
  ['created_at.lte', '<=', 'is less than or equal to'],
] as const;

type CreatedAtFilter = (typeof CREATED_AT_FILTERS)[number][0];

/** A Unix-seconds filter: one canonical integer, given once. */
function UnixSecondsFilter(name: CreatedAtFilter) {
  const meaning = CREATED_AT_FILTERS.find(([key]) => key === name)![2];
  return applyDecorators(
    ApiPropertyOptional({
      name,
      type: 'integer',
      description: `Unix seconds; orders whose created_at ${meaning} it`,
    }),
    IsOptional(),
    StrictInt(),
    NotRepeated(),
    IsInt({ message: `${name} must be an integer (Unix seconds)` }),
  );
}

/**
 * `GET /v1/orders` query: the spec's parameters plus the filters real Ticket Tailor clients send.
 * Keys are literal (`created_at.gt` is one key: the query parser does not nest them).
 */
export class ListOrdersQueryDto extends CursorQueryDto {
  @UnixSecondsFilter('created_at')
  created_at?: number;

  @UnixSecondsFilter('created_at.gt')
  'created_at.gt'?: number;

  @UnixSecondsFilter('created_at.gte')
  'created_at.gte'?: number;

  @UnixSecondsFilter('created_at.lt')
  'created_at.lt'?: number;

  @UnixSecondsFilter('created_at.lte')
  'created_at.lte'?: number;

  @ApiPropertyOptional({
    description: 'An event id, or a comma-separated list of up to 50',
    example: 'ev_1,ev_2',
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: 'event_id must be an event id or a comma list of them' })
  @Matches(/^ev_[1-9]\d{0,9}(,ev_[1-9]\d{0,9}){0,49}$/, {
    message:
      'event_id must be an event id (ev_<number>) or a comma list of up to 50',
  })
  event_id?: string;

  @ApiPropertyOptional({
    enum: [...ORDER_STATUSES, 'canceled'],
    description: '`canceled` is accepted as `cancelled`',
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) =>
    value === 'canceled' ? 'cancelled' : value,
  )
  @NotRepeated()
  @IsIn(ORDER_STATUSES, {
    message: `status must be one of ${ORDER_STATUSES.join(', ')}`,
  })
  status?: OrderStatus;

  @ApiPropertyOptional({
    description: 'Buyer e-mail, exact but case-insensitive',
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: 'email must be an e-mail address' })
  @Length(1, 320, {
    message: 'email must be an e-mail address of at most 320 characters',
  })
  // Deliberately permissive (real addresses vary): one @, something either side, no spaces.
  @Matches(/^[^\s@]+@[^\s@]+$/, { message: 'email must be an e-mail address' })
  email?: string;

  @ApiPropertyOptional({ description: 'Payment transaction id' })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: 'txn_id must be a string' })
  @Length(1, 255, { message: 'txn_id must be 1 to 255 characters' })
  txn_id?: string;

  @ApiPropertyOptional({
    description: 'Orders holding an issued ticket with this barcode',
  })
  @IsOptional()
  @NotRepeated()
  @IsString({ message: 'barcode must be a string' })
  @Length(1, 64, { message: 'barcode must be 1 to 64 characters' })
  barcode?: string;
}
