import { Module } from '@nestjs/common';
import { SyncHorizon } from './sync-horizon';

/**
 * Incremental sync (docs/API.md, "Incremental sync"): the horizon the lists' watermark reads.
 * The data version that conditional requests are answered from lives apart, in
 * src/revalidation/.
 */
@Module({
  providers: [SyncHorizon],
  exports: [SyncHorizon],
})
export class SyncModule {}
