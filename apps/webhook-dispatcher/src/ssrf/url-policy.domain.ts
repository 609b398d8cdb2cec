import { type AddressClass, classifyAddress, isAllowedAddressClass } from './address-class.domain';

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** A webhook URL that passed the static rules; its host still has to resolve to allowed addresses. */
export interface WebhookTarget {
  url: URL;
  /** Without brackets or a trailing dot: what DNS is asked for, or the IP literal. */
  host: string;
  /** Set when the host is an IP literal: no DNS involved. */
  literalClass: AddressClass | null;
}

export type UrlCheck = { ok: true; target: WebhookTarget } | { ok: false; message: string };

/** `a private address`, `an unspecified address`. */
const anAddress = (kind: AddressClass) => {
  const name = kind.replace('_', '-');
  return `${/^[aeiou]/.test(name) ? 'an' : 'a'} ${name} address`;
};

/** Names that always mean this machine (RFC 6761), whatever a resolver says. */
export function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';
}

/**
 * The static half of the SSRF rules: `https://` only, no credentials, and a host that is not a
 * refused address by itself (IP literals in any spelling the URL parser accepts, `localhost`).
 */
export function checkWebhookUrl(text: string, allowPrivateNetworks: boolean): UrlCheck {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) {
    return { ok: false, message: `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'url must be an absolute https:// URL' };
  }
  if (url.protocol !== 'https:') {
    return { ok: false, message: 'url must use https://' };
  }
  if (url.username || url.password) {
    return { ok: false, message: 'url must not contain credentials' };
  }
  const host = url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  if (!host) {
    return { ok: false, message: 'url must name a host' };
  }
  const literalClass = classifyAddress(host) ?? (isLoopbackName(host) ? 'loopback' : null);
  if (literalClass && !isAllowedAddressClass(literalClass, allowPrivateNetworks)) {
    return { ok: false, message: `url must not point to ${anAddress(literalClass)}` };
  }
  return { ok: true, target: { url, host, literalClass: classifyAddress(host) } };
}

/**
 * The dynamic half: every address the host resolves to must be allowed, not just one, so a record
 * set mixing a public and a private address cannot be used to reach the private one.
 */
export function checkResolvedAddresses(
  host: string,
  addresses: readonly string[],
  allowPrivateNetworks: boolean,
): { ok: true } | { ok: false; message: string } {
  if (addresses.length === 0) {
    return { ok: false, message: `url host ${host} does not resolve` };
  }
  for (const address of addresses) {
    const kind = classifyAddress(address) ?? 'reserved';
    if (!isAllowedAddressClass(kind, allowPrivateNetworks)) {
      // WARNING: never name the address: a refusal quoting it would be an oracle for internal DNS.
      return { ok: false, message: `url host ${host} resolves to ${anAddress(kind)}` };
    }
  }
  return { ok: true };
}
