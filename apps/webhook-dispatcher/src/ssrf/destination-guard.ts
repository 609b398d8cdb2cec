import { type LookupAddress, promises as dns } from 'node:dns';
import { type LookupFunction } from 'node:net';
import { checkResolvedAddresses, checkWebhookUrl, type UrlCheck } from './url-policy.domain';

/** DNS: every address a host name resolves to. Injectable so tests can play a rebinding resolver. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** A connection refused by the SSRF rules: recorded on the attempt, never sent. */
export class BlockedDestinationError extends Error {
  readonly code = 'EWEBHOOKBLOCKED';
}

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
    return resolved.ok ? checked : resolved;
  }

  /** The static rules only: IP literals never reach `lookup` (sockets skip DNS for them). */
  checkStatic(url: string): UrlCheck {
    return checkWebhookUrl(url, this.allowPrivateNetworks);
  }

  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolveChecked(hostname).then(
      (result) => {
        if (!result.ok) {
          callback(new BlockedDestinationError(result.message), '', 0);
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

  private async resolveChecked(
    host: string,
  ): Promise<{ ok: true; addresses: LookupAddress[] } | { ok: false; message: string }> {
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(host);
    } catch {
      return { ok: false, message: `url host ${host} does not resolve` };
    }
    const verdict = checkResolvedAddresses(
      host,
      addresses.map((a) => a.address),
      this.allowPrivateNetworks,
    );
    return verdict.ok ? { ok: true, addresses } : verdict;
  }
}
