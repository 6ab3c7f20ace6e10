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
import { Type } from 'class-transformer';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';
import { TypicalIssuedTicketsService } from './issued-tickets.service';
import { ListIssuedTicketsQuery } from './list-issued-tickets.query';
import { IssuedTicketResponse } from './order.response';
import { PageLinks, pageLinks } from './transforms';

export class IssuedTicketListResponse {
  @Type(() => IssuedTicketResponse)
  data: IssuedTicketResponse[];

  links: PageLinks;

  constructor(data: IssuedTicketResponse[], links: PageLinks) {
    this.data = data;
    this.links = links;
  }
}

@Controller('v1/issued_tickets')
@UseGuards(ApiKeyGuard)
@UseInterceptors(ClassSerializerInterceptor)
export class TypicalIssuedTicketsController {
  constructor(private readonly tickets: TypicalIssuedTicketsService) {}

  @Get()
  async list(
    @Req() request: AuthedRequest,
    @Query() query: ListIssuedTicketsQuery,
  ): Promise<IssuedTicketListResponse> {
    const page = await this.tickets.list(request.boxOfficeId, query);
    const data = page.tickets.map(
      (ticket) =>
        new IssuedTicketResponse(
          ticket,
          ticket.order!.buyerEmail,
          ticket.event!.eventSeriesId,
        ),
    );
    const ids = page.tickets.map((ticket) => `it_${ticket.id}`);
    return new IssuedTicketListResponse(
      data,
      pageLinks(
        '/v1/issued_tickets',
        page,
        ids[0],
        ids[ids.length - 1],
        request.query as Record<string, unknown>,
      ),
    );
  }

  @Get(':id')
  async retrieve(
    @Req() request: AuthedRequest,
    @Param('id') id: string,
  ): Promise<IssuedTicketResponse> {
    const ticket = await this.tickets.retrieve(request.boxOfficeId, id);
    return new IssuedTicketResponse(
      ticket,
      ticket.order!.buyerEmail,
      ticket.event!.eventSeriesId,
    );
  }
}
