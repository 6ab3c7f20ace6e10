import { Module } from '@nestjs/common';
import { ChangesRetention } from './changes-retention';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';

/** The change feed (docs/API.md, "Change feed"): the feed and its retention cleanup. */
@Module({
  controllers: [ChangesController],
  providers: [ChangesService, ChangesRetention],
  exports: [ChangesRetention],
})
export class ChangesModule {}
