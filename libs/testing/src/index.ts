export * from './test-database';
export * from './test-runtime';
export * from './kafka-test-runtime';
// The local launcher lives in @cts/runtime (npm run stack uses it); tests keep importing it from here.
export {
  type AppProcess,
  type AppProcesses,
  findFreePort,
  generateStackSecrets,
  queryUrlsOf,
  startAppProcess,
  startAppProcesses,
} from '@cts/runtime';
export * from './https-receiver';
export * from './test-certificates';
export * from './service-under-test';
export * from './parties';
export * from './fake-peer';
