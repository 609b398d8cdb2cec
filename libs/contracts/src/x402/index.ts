export * from './x402.schemas';
export * from './x402.commands';
export * from './x402.events';
