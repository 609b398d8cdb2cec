import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DASHBOARD_FILES, locateDashboardDir } from './dashboard.assets';
import { DASHBOARD_CSP, DASHBOARD_HEADERS } from './dashboard.headers';

describe('dashboard files', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cts-dashboard-assets-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const built = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    writeFileSync(join(dir, 'dashboard.js'), '');
    return dir;
  };

  it('finds the build beside the compiled gateway (dist/apps/gateway/src/dashboard)', () => {
    const dir = built(join(root, 'dist/apps/dashboard-ui'));
    expect(locateDashboardDir(join(root, 'dist/apps/gateway/src/dashboard'))).toBe(dir);
  });

  it('finds the build in dist/ when the gateway runs from its sources', () => {
    const dir = built(join(root, 'dist/apps/dashboard-ui'));
    expect(locateDashboardDir(join(root, 'apps/gateway/src/dashboard'))).toBe(dir);
  });

  it('reports a dashboard that was not built', () => {
    mkdirSync(join(root, 'dist/apps/dashboard-ui'), { recursive: true });
    expect(locateDashboardDir(join(root, 'apps/gateway/src/dashboard'))).toBeUndefined();
  });

  it('serves only known file names, WASM with its own type', () => {
    expect(Object.keys(DASHBOARD_FILES).every((name) => /^[a-z-]+\.[a-z]+$/.test(name))).toBe(true);
    expect(DASHBOARD_FILES['zk-sdk.wasm']).toBe('application/wasm');
  });

  it('allows no inline script or style and no eval beyond WebAssembly compilation', () => {
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-inline|'unsafe-eval'|\*/);
    expect(DASHBOARD_CSP).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_HEADERS['Content-Security-Policy']).toBe(DASHBOARD_CSP);
  });
});
