import { Controller, Get, Param, Query } from '@nestjs/common';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import {
  ApiList,
  ApiResource,
  ApiRetrieve,
} from '../common/openapi/api-operations';
import { RevalidatedByDataVersion } from '../revalidation/revalidation';
import { SYNC_PAGE_HEADERS } from '../sync/sync-mode';
import { Page } from '../common/pagination/page';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ListOrdersQueryDto } from './dto/list-orders-query.dto';
import { OrderDto, OrderListDto } from './dto/order.dto';
import { OrdersService } from './orders.service';
import { RESOURCE } from '../common/resources/resource-identities';

@ApiResource(RESOURCE.order.tag)
@Controller({ path: RESOURCE.order.segment, version: '1' })
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @RevalidatedByDataVersion({ watermark: true })
  @Get()
  @ApiList({
    operationId: 'listOrders',
    summary: "List the box office's orders",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
    type: OrderListDto,
    noun: RESOURCE.order.noun,
    pageHeaders: SYNC_PAGE_HEADERS,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListOrdersQueryDto,
  ): Promise<Page> {
    return this.orders.list(caller.boxOfficeId, query);
  }

  @RevalidatedByDataVersion()
  @Get(':order_id')
  @ApiRetrieve({
    operationId: 'retrieveOrder',
    summary: 'Retrieve one order',
    description:
      'The same object, byte for byte, as its entry in the list; another box office’s order is not found.',
    type: OrderDto,
    noun: RESOURCE.order.noun,
    param: 'order_id',
    prefix: RESOURCE.order.prefix,
  })
  retrieve(
    @CurrentCaller() caller: Caller,
    @Param('order_id') orderId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return this.orders.retrieve(caller.boxOfficeId, orderId);
  }
}
