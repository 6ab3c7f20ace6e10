import {
  ClassSerializerInterceptor,
  Controller,
  Get,
  Query,
  Req,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import { Exclude, Expose, Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { CheckIn } from '../../src/check-ins/entities/check-in.entity';
import { ApiKeyGuard, type AuthedRequest } from './api-key.guard';
import { TypicalCheckInsService } from './check-ins.service';
import { PageLinks, Prefixed, pageLinks } from './transforms';

export class ListCheckInsQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @IsString() starting_after?: string;
  @IsOptional() @IsString() ending_before?: string;
}

@Exclude()
export class CheckInResponse {
  @Expose() readonly object = 'check_in';
  @Expose() @Prefixed('ci_') id: number;
  @Expose({ name: 'issued_ticket_id' }) @Prefixed('it_') issuedTicketId: number;
  @Expose({ name: 'event_id' }) @Prefixed('ev_') eventId: number;
  @Expose({ name: 'event_series_id' }) @Prefixed('es_') eventSeriesId: number;
  @Expose() quantity: number;
  @Expose({ name: 'check_in_at' }) checkInAt: number;
  @Expose({ name: 'created_at' }) createdAt: number;

  constructor(checkIn: CheckIn) {
    Object.assign(this, checkIn);
  }
}

export class CheckInListResponse {
  @Type(() => CheckInResponse)
  data: CheckInResponse[];

  links: PageLinks;

  constructor(data: CheckInResponse[], links: PageLinks) {
    this.data = data;
    this.links = links;
  }
}

@Controller('v1/check_ins')
@UseGuards(ApiKeyGuard)
@UseInterceptors(ClassSerializerInterceptor)
export class TypicalCheckInsController {
  constructor(private readonly checkIns: TypicalCheckInsService) {}

  @Get()
  async list(
    @Req() request: AuthedRequest,
    @Query() query: ListCheckInsQuery,
  ): Promise<CheckInListResponse> {
    const page = await this.checkIns.list(request.boxOfficeId, query);
    const ids = page.checkIns.map((checkIn) => `ci_${checkIn.id}`);
    return new CheckInListResponse(
      page.checkIns.map((checkIn) => new CheckInResponse(checkIn)),
      pageLinks(
        '/v1/check_ins',
        page,
        ids[0],
        ids[ids.length - 1],
        request.query as Record<string, unknown>,
      ),
    );
  }
}
