import { Module } from '@nestjs/common';
import { WritesModule } from '../common/writes/writes.module';
import { SyncModule } from '../sync/sync.module';
import { CheckInsController } from './check-ins.controller';
import { CheckInsService } from './check-ins.service';

@Module({
  imports: [SyncModule, WritesModule],
  controllers: [CheckInsController],
  providers: [CheckInsService],
})
export class CheckInsModule {}
