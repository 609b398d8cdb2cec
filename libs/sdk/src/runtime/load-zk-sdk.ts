/**
 * Resolves once the SDK's crypto can run. In Node the zk-sdk loads with the SDK, so there is nothing
 * to wait for; the browser build (`@cts/sdk` under the `browser` condition) fetches `zk-sdk.js` and
 * `zk-sdk.wasm` from `base` and must be awaited before decrypting.
 */
export function loadZkSdk(_base?: URL | string): Promise<void> {
  return Promise.resolve();
}
