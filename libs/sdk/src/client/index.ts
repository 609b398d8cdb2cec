export { CtsClient, type CtsClientOptions, type WriteOptions } from './cts-client';
export { CtsApiError, CtsNetworkError } from './cts-api-error';
export type { ApiRequest, ApiResponse, FetchLike, HttpMethod, QueryValue } from './http-transport';
export type * from './types';
export { WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT } from './types/webhooks';
