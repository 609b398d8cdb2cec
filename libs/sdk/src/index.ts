export * from './crypto';
export * from './client';
export * from './webhooks';
export { loadZkSdk } from './runtime/load-zk-sdk';
export * from './x402';
