export * from './crypto';
export * from './client';
export * from './webhooks';
