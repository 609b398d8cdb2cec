import Module from 'node:module';

// @solana-program/token-2022/confidential requires '@solana/zk-sdk/bundler', whose entry imports a
// .wasm file that plain Node cannot load. Redirect it to the Node build (CommonJS, loads the WASM
// synchronously) so token-2022 and our own code share ONE wasm instance: wasm-bindgen objects are
// pointers into a specific instance and break when mixed. Jest does the same with moduleNameMapper.
// WARNING: this must run before anything requires '@solana-program/token-2022/confidential'.
type Resolver = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolver };
const originalResolve = moduleInternals._resolveFilename;
moduleInternals._resolveFilename = function redirectZkSdk(this: unknown, request: string, ...rest: unknown[]) {
  const target = request === '@solana/zk-sdk/bundler' || request === '@solana/zk-sdk/web' ? '@solana/zk-sdk/node' : request;
  return originalResolve.call(this, target, ...rest);
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const zk = require('@solana/zk-sdk/node') as typeof import('@solana/zk-sdk/node');
