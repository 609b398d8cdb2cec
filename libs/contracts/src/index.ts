export * from './environment';
export * from './ids';
export * from './errors';
export * from './envelope';
export * from './contract';
export * from './topics';
export * from './accounts';
