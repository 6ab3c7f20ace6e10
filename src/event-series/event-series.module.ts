import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { EventSeriesController } from './event-series.controller';
import { EventSeriesService } from './event-series.service';

@Module({
  imports: [EventsModule],
  controllers: [EventSeriesController],
  providers: [EventSeriesService],
})
export class EventSeriesModule {}
