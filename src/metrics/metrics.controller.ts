import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { Metrics } from '../common/metrics/metrics';
import { MetricsTokenGuard } from './metrics-token.guard';

/** Where Prometheus scrapes (docs/OPERATIONS.md, Metrics). */
export const METRICS_PATH = '/metrics';

/**
 * GET /metrics: Prometheus's text format, with the metrics token (MetricsTokenGuard) instead of
 * an API key. Routed only while METRICS_TOKEN is set (MetricsModule); not part of the API's
 * OpenAPI document, and not rate limited (the request pipeline passes it by).
 */
@ApiExcludeController()
@Controller(METRICS_PATH.slice(1))
@Public()
@UseGuards(MetricsTokenGuard)
export class MetricsController {
  constructor(private readonly metrics: Metrics) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.scrape();
  }
}
