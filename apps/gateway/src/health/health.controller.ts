import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { READINESS_PROBES, type ReadinessProbe } from '@cts/platform';
import { type Response } from 'express';

type ProbeStatus = 'up' | 'down';

/** Liveness (`/healthz`: the process answers) and readiness (`/readyz`: cache and broker answer). */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(@Inject(READINESS_PROBES) private readonly probes: ReadinessProbe[]) {}

  @Get('healthz')
  live() {
    return { status: 'ok' };
  }

  @Get('readyz')
  async ready(@Res({ passthrough: true }) res: Response) {
    const results = await Promise.all(this.probes.map(async (p) => [p.name, await run(p)] as const));
    const ready = results.every(([, status]) => status === 'up');
    res.status(ready ? 200 : 503);
    return { status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(results) };
  }
}

async function run(probe: ReadinessProbe): Promise<ProbeStatus> {
  try {
    return (await probe.check()) ? 'up' : 'down';
  } catch {
    return 'down';
  }
}
