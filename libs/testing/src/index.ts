export * from './test-database';
export * from './test-runtime';
export * from './kafka-test-runtime';
export * from './app-processes';
export * from './https-receiver';
export * from './test-certificates';
