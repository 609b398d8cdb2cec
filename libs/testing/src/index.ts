export * from './test-database';
export * from './test-runtime';
export * from './kafka-test-runtime';
export * from './app-processes';
