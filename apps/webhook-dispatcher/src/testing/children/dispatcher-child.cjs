// Child process for the crash test: a real webhook-dispatcher (built, from dist/) that subscribes a
// receiver, publishes events as the bus would and starts attempting them. It never exits by itself:
// the test kills it with SIGKILL while its attempts are in flight, as a crashed pod would die.
// Config (JSON in DISPATCHER_CHILD_CONFIG): { databaseUrl, ca, url, events }.
const { join } = require('node:path');
const repo = join(__dirname, '../../../../..');
const dist = (path) => require(join(repo, 'dist/apps/webhook-dispatcher', path));
const { TransferConfirmed } = require(join(repo, 'dist/libs/contracts'));
const { createWebhook, startDispatcher } = dist('testing/dispatcher-harness.js');
const { eventEnvelope, publishEvent, senderParty, transferPayload } = dist('testing/event-factories.js');

async function main() {
  const config = JSON.parse(process.env.DISPATCHER_CHILD_CONFIG ?? '{}');
  const instance = await startDispatcher({ url: config.databaseUrl }, { ca: config.ca }, new Map(), {
    WEBHOOK_TIMEOUT_MS: '15000',
    // Room for the whole batch at once on one endpoint.
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: String(config.events),
  });
  const created = await createWebhook(instance.commands, {
    account_id: 'acct_crash',
    environment: 'test',
    url: config.url,
    events: ['transfer.confirmed'],
  });
  if (!created.ok) throw new Error(created.error.message);
  process.stdout.write(`${JSON.stringify({ webhook_id: created.value.webhook_id })}\n`);
  for (let i = 0; i < config.events; i++) {
    const payload = transferPayload({
      transfer_id: `tr_crash_${i}`,
      sender: senderParty('acct_crash', '@crash'),
    });
    publishEvent(instance.bus, TransferConfirmed, eventEnvelope(TransferConfirmed, payload));
  }
  setInterval(() => undefined, 60_000);
}

main().catch((error) => {
  console.error(error);
  process.exit(3);
});
