// The service apps, in start order (the gateway comes last: it needs the services to answer).
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repoRoot } from './projects.mjs';

export const SERVICE_APPS = [
  'account-service',
  'transfer-service',
  'agent-policy-service',
  'approval-service',
  'webhook-dispatcher',
];

const require = createRequire(import.meta.url);

/** A built app's module (`dist/apps/<app>/<app>.js`), exporting `start(runtime)` and its definition. */
export const loadServiceApp = (name) => require(join(repoRoot, 'dist/apps', name, `${name}.js`));
export const loadGatewayApp = () => require(join(repoRoot, 'dist/apps/gateway/gateway.app.js'));
export const loadPlatform = () => require(join(repoRoot, 'dist/libs/platform'));
export const loadRuntime = () => require(join(repoRoot, 'dist/libs/runtime'));
export const loadPersistence = () => require(join(repoRoot, 'dist/libs/persistence'));
