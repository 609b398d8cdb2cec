export * from './account.schemas';
export * from './account.commands';
export * from './account.events';
