import { parentPort } from 'node:worker_threads';
import { serializeError } from '../ledger.errors';
import { buildSignedTransactions } from '../transactions/build-signed-transactions';
import { type JobMessage, type ResultMessage } from './worker-protocol';

// Worker entry: one job at a time (proof generation is CPU-bound), results back as plain data.
const port = parentPort;
if (port === null) {
  throw new Error('proof-worker must run inside a worker thread');
}
port.on('message', (message: JobMessage) => {
  buildSignedTransactions(message.job).then(
    (result) => port.postMessage({ id: message.id, ok: true, result } satisfies ResultMessage),
    (error: unknown) =>
      port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies ResultMessage),
  );
});
