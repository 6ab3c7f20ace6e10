import { Module } from '@nestjs/common';
import { WritesModule } from '../common/writes/writes.module';
import { SyncModule } from '../sync/sync.module';
import { IssuedTicketsController } from './issued-tickets.controller';
import { IssuedTicketsService } from './issued-tickets.service';
import { TicketWritesService } from './ticket-writes.service';

@Module({
  imports: [SyncModule, WritesModule],
  controllers: [IssuedTicketsController],
  providers: [IssuedTicketsService, TicketWritesService],
})
export class IssuedTicketsModule {}
