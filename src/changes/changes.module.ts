import { Module } from '@nestjs/common';
import { ChangeAssigner } from './change-assigner';
import { ChangesRetention } from './changes-retention';
import { ChangesController } from './changes.controller';
import { ChangesService } from './changes.service';

/**
 * The change feed (docs/API.md, "Change feed"): the feed, the numbering of its entries on
 * PostgreSQL and its retention cleanup.
 */
@Module({
  controllers: [ChangesController],
  providers: [ChangesService, ChangesRetention, ChangeAssigner],
  exports: [ChangesRetention],
})
export class ChangesModule {}
