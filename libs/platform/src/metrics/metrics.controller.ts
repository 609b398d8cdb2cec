import { Controller, Get, Header } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { metricsRegistry } from './metrics';

/** Prometheus scrape endpoint. Never expose it on a public ingress: it is for the cluster's scraper. */
@ApiExcludeController()
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('Content-Type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
