import { Module } from '@nestjs/common';
import { SyncModule } from '../sync/sync.module';
import { IssuedTicketsController } from './issued-tickets.controller';
import { IssuedTicketsService } from './issued-tickets.service';

@Module({
  imports: [SyncModule],
  controllers: [IssuedTicketsController],
  providers: [IssuedTicketsService],
})
export class IssuedTicketsModule {}
