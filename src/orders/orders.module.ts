import { Module } from '@nestjs/common';
import { SyncModule } from '../sync/sync.module';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

@Module({
  imports: [SyncModule],
  controllers: [OrdersController],
  providers: [OrdersService],
})
export class OrdersModule {}
