/** Canned admin API responses, shaped like ARCHITECTURE §6a. */
export const ACCOUNT = {
  account_id: 'acc_01',
  handle: '@alice',
  type: 'personal',
  public_key: null,
  kyc_status: 'verified',
  created_at: '2026-01-01T00:00:00.000Z',
};

export function apiKey(environment: 'test' | 'live', name = 'default') {
  return {
    key_id: `key_${environment}`,
    name,
    environment,
    prefix: `svc_${environment}_AbCd`,
    created_at: '2026-01-01T00:00:00.000Z',
    last_used_at: null,
    request_count: 0,
    revoked_at: null,
    secret: `svc_${environment}_AbCdSecret`,
  };
}

export const CREATED_ACCOUNT = {
  account: ACCOUNT,
  decryption_key: 'dk_secret',
  api_keys: { test: apiKey('test'), live: apiKey('live') },
};

export const TOKEN = 'admin-secret';
