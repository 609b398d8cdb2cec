export type Environment = 'live' | 'test';

export interface ApiKey {
  key_id: string;
  name: string;
  environment: Environment;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  request_count: number;
  revoked_at: string | null;
  /** Base64 running USDC total under the account's key (open with `decryptAmount`), `null` before any transfer. */
  encrypted_usdc_total?: string | null;
}

/** The create response: `secret` is the key itself, shown this once only. */
export interface CreatedApiKey extends ApiKey {
  secret: string;
}

export interface ApiKeyList {
  api_keys: ApiKey[];
}

export interface CreateApiKeyInput {
  name: string;
  /** Defaults to the calling key's environment. */
  environment?: Environment;
}
