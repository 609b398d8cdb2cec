// Shared Jest settings: swc transform (decorator metadata on), workspace aliases to sources,
// and the zk-sdk redirect (its /bundler entry imports a .wasm file plain Node cannot load).
const swcOptions = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', swcOptions] },
  // NestJS 12 ships ES modules only: let swc turn them into CommonJS for Jest.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|file-type|load-esm|uid|uuid|@noble|@scure)/)'],
  moduleNameMapper: {
    '^@cts/([a-z-]+)$': '<rootDir>/libs/$1/src/index.ts',
    '^@solana/zk-sdk/(bundler|web)$': '@solana/zk-sdk/node',
  },
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
};
