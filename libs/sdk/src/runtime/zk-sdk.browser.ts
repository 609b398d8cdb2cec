// Stands in for libs/crypto/src/zk-sdk.ts in the browser bundle (see build.mjs). That file loads
// zk-sdk's Node build synchronously; here the web build is fetched and instantiated once, then its
// exports are copied into `zk`, which the SDK reads at call time.
// WARNING: nothing may call the SDK's crypto before `loadZkSdk` resolved.
type ZkSdk = typeof import('@solana/zk-sdk/node');
type ZkSdkWeb = typeof import('@solana/zk-sdk/web');

export const zk = {} as ZkSdk;

let loading: Promise<void> | undefined;

/** Loads `zk-sdk.js` and `zk-sdk.wasm` from `base` (the dashboard's own URL). Needs 'wasm-unsafe-eval'. */
export function loadZkSdk(base: URL): Promise<void> {
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
