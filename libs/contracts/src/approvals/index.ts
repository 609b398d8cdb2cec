export * from './approval.events';
export * from './approval.schemas';
export * from './approval.commands';
