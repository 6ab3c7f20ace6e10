import { Module } from '@nestjs/common';
import { WritesModule } from '../common/writes/writes.module';
import { WebhookDeliveriesRetention } from './webhook-deliveries-retention';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WebhookEndpointsService } from './webhook-endpoints.service';

/** Webhooks (docs/API.md, "Webhooks"): endpoints, their delivery, and its history's retention. */
@Module({
  imports: [WritesModule],
  controllers: [WebhookEndpointsController],
  providers: [
    WebhookEndpointsService,
    WebhookDeliveryWorker,
    WebhookDeliveriesRetention,
  ],
})
export class WebhooksModule {}
