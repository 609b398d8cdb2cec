import { Controller, Get, Inject } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { READINESS_PROBES, type ReadinessProbe } from './readiness';

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: its dependencies answer). */
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    @Inject(READINESS_PROBES) private readonly probes: ReadinessProbe[],
  ) {}

  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    return this.health.check([
      () => this.probe('database', async () => (await this.dataSource.query('SELECT 1')) !== undefined),
      ...this.probes.map((p) => () => this.probe(p.name, p.check)),
    ]);
  }

  private async probe(name: string, check: () => Promise<boolean>) {
    const session = this.indicators.check(name);
    try {
      return (await check()) ? session.up() : session.down();
    } catch (error) {
      return session.down({ message: error instanceof Error ? error.message : String(error) });
    }
  }
}
