import { Global, Module } from '@nestjs/common';
import { DrainState } from './drain-state';

/** The instance's one DrainState, for every module (docs/DESIGN.md, Shutdown). */
@Global()
@Module({ providers: [DrainState], exports: [DrainState] })
export class DrainModule {}
