export { payX402, x402Fetch, x402FetchWithPayment } from './x402-fetch';
export {
  type HeldX402Transaction,
  type X402FetchOptions,
  type X402FetchResult,
  type X402PayInput,
  type X402Payment,
  type X402PayResult,
  X402PendingApprovalError,
} from './x402-types';
