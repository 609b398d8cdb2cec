export * from './approval.events';
