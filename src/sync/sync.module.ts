import { Module } from '@nestjs/common';
import { DataVersion } from './data-version';
import { SyncHorizon } from './sync-horizon';

/**
 * Incremental sync (docs/API.md, "Incremental sync"): the horizon the lists' watermark reads, and
 * the data version that conditional requests are answered from (RevalidationInterceptor).
 */
@Module({
  providers: [SyncHorizon, DataVersion],
  exports: [SyncHorizon, DataVersion],
})
export class SyncModule {}
