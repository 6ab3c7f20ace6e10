import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../../src/auth/entities/api-key.entity';
import { BoxOffice } from '../../src/auth/entities/box-office.entity';
import { CheckIn } from '../../src/check-ins/entities/check-in.entity';
import { EventSeries } from '../../src/event-series/entities/event-series.entity';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { Event } from '../../src/events/entities/event.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { Order } from '../../src/orders/entities/order.entity';
import { ApiKeyGuard } from './api-key.guard';
import { TypicalCheckInsController } from './check-ins.controller';
import { TypicalCheckInsService } from './check-ins.service';
import { TypicalEventSeriesController } from './event-series.controller';
import { TypicalEventSeriesService } from './event-series.service';
import { TypicalEventsController } from './events.controller';
import { TypicalEventsService } from './events.service';
import { TypicalIssuedTicketsController } from './issued-tickets.controller';
import { TypicalIssuedTicketsService } from './issued-tickets.service';
import { TypicalOrdersController } from './orders.controller';
import { TypicalOrdersService } from './orders.service';
import {
  TypicalOverviewController,
  TypicalOverviewService,
} from './overview.controller';

/**
 * The peer to beat: the same entity classes and the same database settings as the service, used
 * the way most NestJS code uses them (repositories, relations, skip/take, class-transformer).
 */
@Module({
  imports: [
    TypeOrmModule.forRoot({
      ...buildDataSourceOptions(parseDatabaseUrl(process.env.DATABASE_URL)),
      retryAttempts: 0,
    }),
    TypeOrmModule.forFeature([
      Order,
      Event,
      EventSeries,
      IssuedTicket,
      CheckIn,
      BoxOffice,
      ApiKey,
    ]),
  ],
  controllers: [
    TypicalOrdersController,
    TypicalEventsController,
    TypicalIssuedTicketsController,
    TypicalEventSeriesController,
    TypicalCheckInsController,
    TypicalOverviewController,
  ],
  providers: [
    TypicalOrdersService,
    TypicalEventsService,
    TypicalIssuedTicketsService,
    TypicalEventSeriesService,
    TypicalCheckInsService,
    TypicalOverviewService,
    ApiKeyGuard,
  ],
})
export class TypicalModule {}
