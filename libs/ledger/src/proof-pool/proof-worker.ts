import { parentPort, workerData } from 'node:worker_threads';
import { serializeError } from '../ledger.errors';
import { type ProofEngineName } from '../proof-engine/proof-engine';
import { proofEngineNamed } from '../proof-engine/select-proof-engine';
import { buildSignedTransactions } from '../transactions/build-signed-transactions';
import { type JobMessage, type ReadyMessage, type ResultMessage } from './worker-protocol';

// Worker entry: one job at a time (proof generation is CPU-bound), results back as plain data. The
// pool chose the engine on the main thread; every worker runs that one.
const port = parentPort;
if (port === null) {
  throw new Error('proof-worker must run inside a worker thread');
}
const engine = proofEngineNamed((workerData as { engine: ProofEngineName }).engine);
port.on('message', (message: JobMessage) => {
  buildSignedTransactions(message.job, engine).then(
    (result) => port.postMessage({ id: message.id, ok: true, result } satisfies ResultMessage),
    (error: unknown) =>
      port.postMessage({ id: message.id, ok: false, error: serializeError(error) } satisfies ResultMessage),
  );
});
port.postMessage({ ready: true } satisfies ReadyMessage);
