import { Module } from '@nestjs/common';
import { DataVersion } from './data-version';

/**
 * Conditional requests answered from the box office's data version (docs/API.md, "A 304 without
 * reading a row"): the data version that RevalidationInterceptor (registered in
 * request-pipeline.ts) reads.
 */
@Module({
  providers: [DataVersion],
  exports: [DataVersion],
})
export class RevalidationModule {}
