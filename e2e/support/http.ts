export interface HttpResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: text ? (JSON.parse(text) as unknown) : undefined,
  };
}

export interface CreatedAccount {
  account: {
    account_id: string;
    handle: string;
    type: string;
    public_key: string | null;
    kyc_status: string;
    created_at: string;
  };
  api_keys: { test: { key_id: string; secret: string }; live: { key_id: string; secret: string } };
}

let counter = 0;
export const uniqueHandle = (base: string) =>
  `@${base}_${Date.now().toString(36)}${(counter++).toString(36)}`.slice(0, 31);

export async function createAccount(
  baseUrl: string,
  adminToken: string,
  handle = uniqueHandle('user'),
): Promise<CreatedAccount> {
  const response = await http(baseUrl, 'POST', '/admin/v1/accounts', {
    token: adminToken,
    body: { handle, type: 'personal', kyc_status: 'verified' },
  });
  if (response.status !== 201) {
    throw new Error(`creating ${handle} failed: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body as CreatedAccount;
}
