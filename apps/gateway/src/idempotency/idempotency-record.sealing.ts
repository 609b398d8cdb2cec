import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Stored responses can hold secrets shown once (a new API key), so records are sealed with
 * AES-256-GCM under a key derived from the client's Idempotency-Key, which is itself stored only as
 * a keyed hash: a cache dump alone reveals nothing.
 */
export class IdempotencyRecordSealing {
  constructor(private readonly secret: Buffer) {}

  storageKey(scope: string, idempotencyKey: string): string {
    return `idem:${this.derive('idempotency.id', scope, idempotencyKey).toString('hex')}`;
  }

  seal(scope: string, idempotencyKey: string, value: unknown): string {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv(
      'aes-256-gcm',
      this.derive('idempotency.seal', scope, idempotencyKey),
      nonce,
    );
    cipher.setAAD(Buffer.from(this.storageKey(scope, idempotencyKey)));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** `undefined` when the value cannot be opened (another key, tampered, corrupt). */
  open(scope: string, idempotencyKey: string, stored: string): unknown {
    const bytes = Buffer.from(stored, 'base64url');
    if (bytes.length < NONCE_BYTES + TAG_BYTES) {
      return undefined;
    }
    try {
      const decipher = createDecipheriv(
        'aes-256-gcm',
        this.derive('idempotency.seal', scope, idempotencyKey),
        bytes.subarray(0, NONCE_BYTES),
      );
      decipher.setAAD(Buffer.from(this.storageKey(scope, idempotencyKey)));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      const plain = Buffer.concat([
        decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
        decipher.final(),
      ]);
      return JSON.parse(plain.toString('utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  private derive(label: string, scope: string, idempotencyKey: string): Buffer {
    return createHmac('sha256', this.secret).update(`${label}\0${scope}\0${idempotencyKey}`).digest();
  }
}
