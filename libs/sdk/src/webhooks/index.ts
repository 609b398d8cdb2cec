export {
  assertWebhookSignature,
  verifyWebhookSignature,
  WebhookSignatureError,
  type VerifyWebhookOptions,
  type WebhookSignatureFailure,
} from './verify-webhook-signature';
export type { WebhookHeaders } from './webhook-headers';
