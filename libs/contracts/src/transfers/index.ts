export * from './transfer.events';
export * from './amount-sealing';
export * from './transfer.schemas';
export * from './transfer.commands';
