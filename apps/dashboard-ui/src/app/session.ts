import { type Account, CtsClient } from '@cts/sdk';

// WARNING: only the API key is stored, and only in this tab's session storage (gone when the tab
// closes, removed on sign-out). The decryption key is never stored: it lives in memory (Amounts).
const API_KEY_STORAGE = 'cts.dashboard.api_key';

export type Environment = 'test' | 'live';

export interface Session {
  apiKey: string;
  environment: Environment;
  account: Account;
}

export function environmentOf(apiKey: string): Environment | undefined {
  return apiKey.startsWith('svc_test_') ? 'test' : apiKey.startsWith('svc_live_') ? 'live' : undefined;
}

/** The API lives next to the dashboard: `<origin>/dashboard/` → `<origin>`. */
export function apiBaseUrl(base: URL = new URL(document.baseURI)): string {
  return new URL('../', base).href.replace(/\/+$/, '');
}

export function clientFor(apiKey: string): CtsClient {
  // One quick retry: a person is waiting, and the page shows the error instead.
  return new CtsClient({
    baseUrl: apiBaseUrl(),
    apiKey,
    maxRetries: 1,
    retryDelayMs: 300,
    timeoutMs: 20_000,
  });
}

export function storedApiKey(): string | undefined {
  return sessionStorage.getItem(API_KEY_STORAGE) ?? undefined;
}

export function storeApiKey(apiKey: string): void {
  sessionStorage.setItem(API_KEY_STORAGE, apiKey);
}

export function forgetApiKey(): void {
  sessionStorage.removeItem(API_KEY_STORAGE);
}
