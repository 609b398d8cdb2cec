export * from './account-keys';
export * from './custody-error';
export * from './custody-key.repository';
export * from './in-memory-custody-key.repository';
export { sealKeys, unsealKeys, type SealedKeys } from './sealed-keys';
export * from './custody';
