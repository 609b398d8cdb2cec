import { Injectable } from '@nestjs/common';
import { AuthenticateApiKey, DomainError, type Principal } from '@cts/contracts';
import { CommandBus } from '@cts/messaging';
import { bearerToken } from '@cts/platform';
import { apiKeyEnvironment } from './api-key-secret.domain';
import { ApiKeyHasher } from './api-key-hasher';
import { PrincipalCache } from './principal-cache';

const unauthorized = (message: string) => new DomainError('unauthorized', message);

/** An API key as presented: well-formed, not yet checked. */
export interface PresentedKey {
  environment: Principal['environment'];
  /** The keyed hash it is stored and cached under; it also names the key's rate-limit counter. */
  hash: string;
}

/** Turns an `Authorization` header into the principal of a live (unrevoked) API key. */
@Injectable()
export class ApiKeyAuthenticator {
  constructor(
    private readonly hasher: ApiKeyHasher,
    private readonly principals: PrincipalCache,
    private readonly commands: CommandBus,
  ) {}

  /** The key in the header, or `401 unauthorized` when there is none or it is malformed. */
  presented(authorization: string | undefined): PresentedKey {
    const secret = bearerToken(authorization);
    if (!secret) {
      throw unauthorized('Missing API key: send Authorization: Bearer svc_live_… or svc_test_…');
    }
    const environment = apiKeyEnvironment(secret);
    if (!environment) {
      throw unauthorized(
        'Malformed API key: expected svc_live_… or svc_test_… followed by 43 letters and digits',
      );
    }
    return { environment, hash: this.hasher.hash(secret) };
  }

  async authenticate({ environment, hash }: PresentedKey, requestId: string): Promise<Principal> {
    // Both reads at once: one round trip to the shared cache, not two. They still reach it in this
    // order on its one connection, so a revocation (tombstone first, then the entry) is seen as before.
    const [revoked, cached] = await Promise.all([this.principals.isRevoked(hash), this.principals.get(hash)]);
    if (revoked) {
      throw unauthorized('Invalid or revoked API key');
    }
    const principal = cached ?? (await this.lookUp(hash, environment, requestId));
    if (principal.environment !== environment) {
      throw unauthorized('Invalid or revoked API key');
    }
    return principal;
  }

  private async lookUp(
    hash: string,
    environment: Principal['environment'],
    requestId: string,
  ): Promise<Principal> {
    const context = { correlationId: requestId, causationId: null, environment, accountId: null };
    const result = await this.commands.send(AuthenticateApiKey, { key_hash: hash }, context);
    if (!result.ok) {
      const { code, message } = result.error;
      if (code === 'service_unavailable' || code === 'internal_error') {
        throw new DomainError(code, message);
      }
      throw unauthorized('Invalid or revoked API key');
    }
    await this.principals.fill(hash, result.value);
    // The key may have been revoked while account-service answered: the tombstone decides.
    if (await this.principals.isRevoked(hash)) {
      throw unauthorized('Invalid or revoked API key');
    }
    return result.value;
  }
}
