import { type LookupAddress, promises as dns } from 'node:dns';
import { type LookupFunction } from 'node:net';
import { BLOCKED_CODE } from '../attempts/network-error.domain';
import {
  checkResolvedAddresses,
  checkWebhookUrl,
  type UrlCheck,
  type WebhookTarget,
} from './url-policy.domain';

/** DNS: every address a host name resolves to. Injectable so tests can play a rebinding resolver. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A connection refused by the SSRF rules: recorded on the attempt, never sent. */
export class BlockedDestinationError extends Error {
  readonly code = BLOCKED_CODE;
}

/** Where a delivery may connect now: every address the host resolves to, all of them allowed. */
export type Resolution =
  { ok: true; addresses: LookupAddress[] } | { ok: false; message: string; unresolved: boolean };

/**
 * The SSRF rules with DNS: checked when a subscription is created, and again on every connection
 * a delivery opens. `lookup` is handed to the socket, so it connects to exactly the addresses that
 * were checked, never to a second answer from a rebinding DNS server.
 */
export class DestinationGuard {
  constructor(
    private readonly resolve: Resolver,
    private readonly allowPrivateNetworks: boolean,
  ) {}

  /** The static URL rules, then the resolved addresses (for a host name). */
  async check(url: string): Promise<UrlCheck> {
    const checked = checkWebhookUrl(url, this.allowPrivateNetworks);
    if (!checked.ok || checked.target.literalClass !== null) {
      return checked;
    }
    const resolved = await this.resolveChecked(checked.target.host);
    return resolved.ok ? checked : { ok: false, message: resolved.message };
  }

  /** The static rules only: IP literals never reach `lookup` (sockets skip DNS for them). */
  checkStatic(url: string): UrlCheck {
    return checkWebhookUrl(url, this.allowPrivateNetworks);
  }

  /**
   * The addresses one delivery may connect to, resolved and checked now (the URL's static rules
   * passed already). An IP literal is its own single address, without DNS.
   */
  async resolveForDelivery(target: WebhookTarget): Promise<Resolution> {
    if (target.literalClass !== null) {
      return { ok: true, addresses: [{ address: target.host, family: target.host.includes(':') ? 6 : 4 }] };
    }
    return this.resolveChecked(target.host);
  }

  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolveChecked(hostname).then(
      (result) => {
        if (!result.ok) {
          // A name that does not resolve is a DNS failure, not a refusal: the log tells them apart.
          const error = result.unresolved
            ? Object.assign(new Error(result.message), { code: 'ENOTFOUND' })
            : new BlockedDestinationError(result.message);
          callback(error, '', 0);
          return;
        }
        const family = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = result.addresses.filter((a) => family === undefined || a.family === family);
        const [first] = usable;
        if (!first) {
          callback(
            Object.assign(new Error(`${hostname} has no IPv${family ?? ''} address`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 0),
    );
  };

  private async resolveChecked(host: string): Promise<Resolution> {
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      return { ok: false, message: `url host ${host} does not resolve`, unresolved: true };
    }
    const verdict = checkResolvedAddresses(
      host,
      addresses.map((a) => a.address),
      this.allowPrivateNetworks,
    );
    return verdict.ok ? { ok: true, addresses } : { ...verdict, unresolved: addresses.length === 0 };
  }
}
