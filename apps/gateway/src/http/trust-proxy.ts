/**
 * `TRUST_PROXY` as Express's `trust proxy` takes it. Behind an ingress or a load balancer every
 * request comes from the proxy's address, so per-client limits (the failed-authentication throttle)
 * would count every client as one: trusting the proxy's `X-Forwarded-For` gives the client's.
 * Unset or empty trusts nobody, so a client cannot pick its address by sending the header itself.
 */
export function trustProxySetting(value: string | undefined): boolean | number | string {
  if (!value || value === 'false') {
    return false;
  }
  if (value === 'true') {
    return true;
  }
  return /^\d+$/.test(value) ? Number(value) : value;
}
