import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKey } from '../../src/auth/entities/api-key.entity';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { buildDataSourceOptions } from '../../src/database/data-source-options';
import { Event } from '../../src/events/entities/event.entity';
import { IssuedTicket } from '../../src/issued-tickets/entities/issued-ticket.entity';
import { Order } from '../../src/orders/entities/order.entity';
import { ApiKeyGuard } from './api-key.guard';
import { TypicalEventsController } from './events.controller';
import { TypicalEventsService } from './events.service';
import { TypicalIssuedTicketsController } from './issued-tickets.controller';
import { TypicalIssuedTicketsService } from './issued-tickets.service';
import { TypicalOrdersController } from './orders.controller';
import { TypicalOrdersService } from './orders.service';

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
    TypeOrmModule.forFeature([Order, Event, IssuedTicket, ApiKey]),
  ],
  controllers: [
    TypicalOrdersController,
    TypicalEventsController,
    TypicalIssuedTicketsController,
  ],
  providers: [
    TypicalOrdersService,
    TypicalEventsService,
    TypicalIssuedTicketsService,
    ApiKeyGuard,
  ],
})
export class TypicalModule {}
