import { Module } from '@nestjs/common';
import { ChangesRetention } from './changes-retention';

/** The change feed (docs/API.md, "Change feed"): its retention cleanup. */
@Module({
  providers: [ChangesRetention],
  exports: [ChangesRetention],
})
export class ChangesModule {}
