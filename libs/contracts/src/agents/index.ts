export * from './agent.schemas';
export * from './agent.commands';
export * from './agent.events';
