// The browser build's zk-sdk (libs/sdk/build.mjs puts it in place of the Node one): zk-sdk's web
// build is fetched and instantiated once, then its exports are copied into `zk`, which the SDK's
// crypto reads at call time.
// WARNING: nothing may call the SDK's crypto before `loadZkSdk` resolved.
type ZkSdk = typeof import('@solana/zk-sdk/node');
type ZkSdkWeb = typeof import('@solana/zk-sdk/web');

export const zk = {} as ZkSdk;

let loading: Promise<void> | undefined;

/**
 * Loads `zk-sdk.js` and `zk-sdk.wasm` (shipped in the package's `dist/`) from `base`, the URL the
 * page serves them under. Needs CSP 'wasm-unsafe-eval'.
 */
export function loadZkSdk(base?: URL | string): Promise<void> {
  if (base === undefined) {
    return Promise.reject(new Error('loadZkSdk(base): the URL that serves zk-sdk.js and zk-sdk.wasm'));
  }
  loading ??= (async () => {
    const module = (await import(new URL('zk-sdk.js', base).href)) as ZkSdkWeb;
    await module.default({ module_or_path: new URL('zk-sdk.wasm', base) });
    Object.assign(zk, module);
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
