import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { type Request, type Response } from 'express';
import { type Logger } from 'pino';
import { GATEWAY_LOGGER } from '../gateway.settings';
import { DASHBOARD_FILES, locateDashboardDir } from './dashboard.assets';
import { DASHBOARD_HEADERS } from './dashboard.headers';

const NOT_BUILT = 'The dashboard is not built on this server: run `node apps/dashboard-ui/build.mjs`.\n';

/**
 * The dashboard (issue 8): static files only. The page signs in with an API key and calls the
 * public `/v1` API like any other client; nothing here reads data or knows who is signed in.
 */
@ApiExcludeController()
@Controller('dashboard')
export class DashboardController {
  private readonly dir: string | undefined;

  constructor(@Inject(GATEWAY_LOGGER) private readonly logger: Logger) {
    this.dir = locateDashboardDir();
    if (!this.dir) {
      logger.warn('dashboard not built (node apps/dashboard-ui/build.mjs): /dashboard answers 503');
    }
  }

  @Get()
  page(@Req() req: Request, @Res() res: Response): void {
    // `/dashboard` → `/dashboard/`, so the page's relative URLs (its files, `../v1`) resolve below it.
    if (!req.path.endsWith('/')) {
      res.redirect(308, 'dashboard/');
      return;
    }
    this.send(res, 'index.html');
  }

  @Get(':file')
  file(@Param('file') file: string, @Res() res: Response): void {
    if (!Object.hasOwn(DASHBOARD_FILES, file) || file === 'index.html') {
      throw new NotFoundException(`No dashboard file ${file}`);
    }
    this.send(res, file);
  }

  private send(res: Response, file: string): void {
    res.set(DASHBOARD_HEADERS);
    if (!this.dir) {
      res.status(503).type('text/plain').send(NOT_BUILT);
      return;
    }
    const options = { root: this.dir, headers: { 'Content-Type': DASHBOARD_FILES[file] } };
    res.sendFile(file, options, (error) => {
      if (error && !res.headersSent) {
        this.logger.warn({ err: error, file }, 'dashboard file could not be sent');
        res.status(404).type('text/plain').send('Not found\n');
      }
    });
  }
}
