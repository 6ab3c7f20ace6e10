import { Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { SeriesEventsController } from './series-events.controller';

@Module({
  controllers: [EventsController, SeriesEventsController],
  providers: [EventsService],
})
export class EventsModule {}
