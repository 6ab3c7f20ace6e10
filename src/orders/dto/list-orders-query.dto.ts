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

const unixMessage = (name: string) =>
  `${name} must be an integer (Unix seconds)`;
const unixDoc = (meaning: string) => ({
  description: `Unix seconds; orders whose created_at ${meaning} it`,
  type: 'integer' as const,
});

/**
 * `GET /v1/orders` query: the spec's parameters plus the filters real Ticket Tailor clients send.
 * Keys are literal (`created_at.gt` is one key: the query parser does not nest them).
 */
export class ListOrdersQueryDto extends CursorQueryDto {
  @ApiPropertyOptional(unixDoc('equals'))
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: unixMessage('created_at') })
  created_at?: number;

  @ApiPropertyOptional({ ...unixDoc('is greater than'), name: 'created_at.gt' })
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: unixMessage('created_at.gt') })
  'created_at.gt'?: number;

  @ApiPropertyOptional({
    ...unixDoc('is greater than or equal to'),
    name: 'created_at.gte',
  })
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: unixMessage('created_at.gte') })
  'created_at.gte'?: number;

  @ApiPropertyOptional({ ...unixDoc('is less than'), name: 'created_at.lt' })
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: unixMessage('created_at.lt') })
  'created_at.lt'?: number;

  @ApiPropertyOptional({
    ...unixDoc('is less than or equal to'),
    name: 'created_at.lte',
  })
  @IsOptional()
  @StrictInt()
  @NotRepeated()
  @IsInt({ message: unixMessage('created_at.lte') })
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
