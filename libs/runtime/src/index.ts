export * from './runtime';
export * from './runtime.tokens';
export * from './start-service';
export * from './run-main';
export * from './command-transport';
export * from './consumer-lag';
export * from './launcher/app-processes';
