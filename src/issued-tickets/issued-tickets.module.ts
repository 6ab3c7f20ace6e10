import { Module } from '@nestjs/common';
import { IssuedTicketsController } from './issued-tickets.controller';
import { IssuedTicketsService } from './issued-tickets.service';

@Module({
  controllers: [IssuedTicketsController],
  providers: [IssuedTicketsService],
})
export class IssuedTicketsModule {}
