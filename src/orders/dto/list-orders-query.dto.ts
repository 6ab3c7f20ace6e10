import { ApiPropertyOptional, IntersectionType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import {
  EmailParam,
  IdListParam,
  TextParam,
} from '../../common/pagination/filter-params';
import {
  CursorQueryDto,
  RangeQueryDto,
} from '../../common/pagination/list-query.dto';
import { SortParam } from '../../common/pagination/sort';
import { NotRepeated } from '../../common/validation/strict-query';
import { ORDER_SOURCE } from '../order.fields';
import { ORDER_STATUSES, type OrderStatus } from '../entities/order.entity';
import { RESOURCE } from '../../common/resources/resource-identities';

/**
 * `GET /v1/orders` query: the spec's parameters plus the filters real Ticket Tailor clients send.
 * Keys are literal (`created_at.gt` is one key: the query parser does not nest them).
 */
export class ListOrdersQueryDto extends IntersectionType(
  CursorQueryDto(RESOURCE.order.noun, RESOURCE.order.prefix),
  RangeQueryDto('created_at', 'orders'),
  RangeQueryDto('updated_at', 'orders'),
) {
  @IdListParam(
    'event_id',
    RESOURCE.event.prefix,
    'Orders for this event, or for any of a comma list of up to 100',
  )
  event_id?: string;

  @IdListParam(
    'event_series_id',
    RESOURCE.eventSeries.prefix,
    'Orders for events of this series, or of any of a comma list of up to 100',
  )
  event_series_id?: string;

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

  @EmailParam('Buyer e-mail, exact but case-insensitive')
  email?: string;

  @TextParam('txn_id', 255, 'Payment transaction id')
  txn_id?: string;

  @TextParam('barcode', 64, 'Orders holding an issued ticket with this barcode')
  barcode?: string;

  @SortParam(ORDER_SOURCE.sorts)
  sort?: string;
}
