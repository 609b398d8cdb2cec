import Module from 'node:module';

// @solana-program/token-2022/confidential requires '@solana/zk-sdk/bundler', whose entry imports a
// .wasm file that plain Node cannot load. Redirect it to the Node build (CommonJS, loads the WASM
// synchronously) so token-2022 and our own code share ONE wasm instance: wasm-bindgen objects are
// pointers into a specific instance and break when mixed. Jest does the same with moduleNameMapper.
// WARNING: this must run before anything requires '@solana-program/token-2022/confidential'.
//
// @solana/zk-sdk 0.4.1 also ships dist/node/index.cjs, which loads an OLDER wasm build: its proofs verify
// only under solana-zk-sdk <= 4 and the current ZK ElGamal proof program rejects them. Nothing may load it.
export const OUTDATED_CJS_ENTRY = /@solana[\\/]zk-sdk[\\/]dist[\\/]node[\\/]index\.cjs$/;
type Resolver = (request: string, ...rest: unknown[]) => string;
const moduleInternals = Module as unknown as { _resolveFilename: Resolver };
const originalResolve = moduleInternals._resolveFilename;
moduleInternals._resolveFilename = function redirectZkSdk(
  this: unknown,
  request: string,
  ...rest: unknown[]
) {
  const target =
    request === '@solana/zk-sdk/bundler' || request === '@solana/zk-sdk/web'
      ? '@solana/zk-sdk/node'
      : request;
  const resolved = originalResolve.call(this, target, ...rest);
  if (OUTDATED_CJS_ENTRY.test(resolved)) {
    throw new Error(
      `${resolved} loads an older zk-sdk build whose proofs the current on-chain verifier rejects; use '@solana/zk-sdk/node'`,
    );
  }
  return resolved;
};

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const zk = require('@solana/zk-sdk/node') as typeof import('@solana/zk-sdk/node');
