import {
  ClassSerializerInterceptor,
  Controller,
  Get,
  Param,
  Query,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';
import { ListOrdersQuery } from './list-orders.query';
import { OrderListResponse, OrderResponse } from './order.response';
import { TypicalOrdersService } from './orders.service';
import { link } from './transforms';

@Controller('v1/orders')
@UseGuards(ApiKeyGuard)
@UseInterceptors(ClassSerializerInterceptor)
export class TypicalOrdersController {
  constructor(private readonly orders: TypicalOrdersService) {}

  @Get()
  async list(
    @Req() request: AuthedRequest,
    @Query() query: ListOrdersQuery,
  ): Promise<OrderListResponse> {
    const page = await this.orders.list(request.boxOfficeId, query);
    const data = page.orders.map((order) => new OrderResponse(order));
    const raw = request.query as Record<string, unknown>;
    return new OrderListResponse(data, {
      next: page.hasNext
        ? link(
            '/v1/orders',
            'starting_after',
            `or_${data[data.length - 1].id}`,
            raw,
          )
        : null,
      previous: page.hasPrevious
        ? link('/v1/orders', 'ending_before', `or_${data[0].id}`, raw)
        : null,
    });
  }

  @Get(':id')
  async retrieve(
    @Req() request: AuthedRequest,
    @Param('id') id: string,
  ): Promise<OrderResponse> {
    return new OrderResponse(
      await this.orders.retrieve(request.boxOfficeId, id),
    );
  }
}
