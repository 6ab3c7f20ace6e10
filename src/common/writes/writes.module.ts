import { Module } from '@nestjs/common';
import { Writes } from './writes';

/** The machinery every write shares (writes.ts), for the feature modules that write. */
@Module({ providers: [Writes], exports: [Writes] })
export class WritesModule {}
