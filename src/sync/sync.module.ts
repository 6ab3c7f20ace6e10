import { Module } from '@nestjs/common';
import { SyncHorizon } from './sync-horizon';

/** Incremental sync (docs/API.md, "Incremental sync"): the horizon the lists' watermark reads. */
@Module({
  providers: [SyncHorizon],
  exports: [SyncHorizon],
})
export class SyncModule {}
