import { Module } from '@nestjs/common';
import { EventAttendanceService } from './event-attendance.service';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { SeriesEventsController } from './series-events.controller';

@Module({
  controllers: [EventsController, SeriesEventsController],
  providers: [EventsService, EventAttendanceService],
})
export class EventsModule {}
