import { type Provider } from '@nestjs/common';
import { parseSealingKey, type SealingKey } from '@cts/crypto';
import { RUNTIME, type Runtime } from '@cts/runtime';

/**
 * DATA_SEALING_KEY, parsed once: opens the amounts and memos the gateway sealed. Its own provider,
 * apart from custody: custody keys sign and decrypt balances, this key only opens what arrives.
 */
export const DATA_KEY = Symbol('DATA_KEY');

export const dataKeyProvider: Provider<SealingKey> = {
  provide: DATA_KEY,
  inject: [RUNTIME],
  useFactory: (runtime: Runtime) => parseSealingKey(runtime.secrets.dataSealingKey, 'DATA_SEALING_KEY'),
};
