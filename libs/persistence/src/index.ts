export * from './data-source';
export * from './outbox-inbox.schema';
export * from './unit-of-work';
export * from './outbox/outbox-relay';
export * from './embedded-postgres';
export * from './persistence-errors';
export * from './prepared-statement';
