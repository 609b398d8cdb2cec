export * from './webhook.schemas';
export * from './webhook.commands';
