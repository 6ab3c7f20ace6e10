import { Controller, Get, Param, Query, UseInterceptors } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { Caller } from '../auth/auth.service';
import { CurrentCaller } from '../auth/caller.decorator';
import { ErrorBodyDto } from '../common/errors/error-body.dto';
import { Page } from '../common/pagination/page';
import { PaginationLinksInterceptor } from '../common/pagination/pagination-links.interceptor';
import { NoQueryDto } from '../common/validation/no-query.dto';
import { ListOrdersQueryDto } from './dto/list-orders-query.dto';
import { OrderDto, OrderListDto } from './dto/order.dto';
import { OrdersService } from './orders.service';

@ApiTags('orders')
@ApiBasicAuth('apiKey')
@ApiUnauthorizedResponse({
  type: ErrorBodyDto,
  description: 'UNAUTHORIZED: missing, malformed, unknown or revoked API key',
})
@ApiTooManyRequestsResponse({
  type: ErrorBodyDto,
  description: 'TOO_MANY_REQUESTS: over the rate limit; see Retry-After',
})
@Controller({ path: 'orders', version: '1' })
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @UseInterceptors(PaginationLinksInterceptor)
  @ApiOperation({
    summary: "List the box office's orders",
    description:
      'Newest first (created_at, then id, descending). Cursor-paginated: follow links.next / links.previous, which keep the other parameters. Filters combine with AND.',
  })
  @ApiOkResponse({ type: OrderListDto })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description:
      'VALIDATION_ERROR: a bad or unknown query parameter. INVALID_CURSOR: a cursor that is malformed or names no order of this box office.',
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query() query: ListOrdersQueryDto,
  ): Promise<Page> {
    return this.orders.list(caller.boxOfficeId, query);
  }

  @Get(':order_id')
  @ApiOperation({ summary: 'Retrieve one order' })
  @ApiBadRequestResponse({
    type: ErrorBodyDto,
    description: 'VALIDATION_ERROR: this path takes no query parameters',
  })
  @ApiParam({ name: 'order_id', example: 'or_1' })
  @ApiOkResponse({ type: OrderDto })
  @ApiNotFoundResponse({
    type: ErrorBodyDto,
    description: 'NOT_FOUND: no such order in this box office',
  })
  async retrieve(
    @CurrentCaller() caller: Caller,
    @Param('order_id') orderId: string,
    @Query() _query: NoQueryDto,
  ): Promise<Buffer> {
    return Buffer.from(await this.orders.retrieve(caller.boxOfficeId, orderId));
  }
}
