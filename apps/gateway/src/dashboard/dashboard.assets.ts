import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The files `node apps/dashboard-ui/build.mjs` writes, and the only ones served under /dashboard/. */
export const DASHBOARD_FILES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.js': 'text/javascript; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
  'zk-sdk.js': 'text/javascript; charset=utf-8',
  // application/wasm lets the browser compile while downloading (instantiateStreaming).
  'zk-sdk.wasm': 'application/wasm',
};

/**
 * Where the built dashboard is: beside the compiled gateway (`dist/apps/dashboard-ui`), or, when the
 * gateway runs from its sources (tests), in the repository's dist/. Undefined when it was not built.
 */
export function locateDashboardDir(fromDir: string = __dirname): string | undefined {
  const candidates = [
    join(fromDir, '../../../dashboard-ui'),
    join(fromDir, '../../../../dist/apps/dashboard-ui'),
  ];
  return candidates.find(
    (dir) => existsSync(join(dir, 'dashboard.js')) && existsSync(join(dir, 'index.html')),
  );
}
