export type * from './accounts';
export type * from './agents';
export type * from './api-keys';
export type * from './sandbox';
export type * from './transfers';
export type * from './webhooks';
