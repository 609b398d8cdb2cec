import { commandRoundTrip, webhookAttempts } from './metrics';

/** A metric's HELP line as Prometheus scrapes it. */
async function helpOf(metric: { get(): Promise<{ help: string }> }): Promise<string> {
  return (await metric.get()).help;
}

describe('metric help texts', () => {
  it('names every outcome the webhook dispatcher counts, and no other', async () => {
    const help = await helpOf(webhookAttempts);
    for (const outcome of ['succeeded', 'failed', 'no_response']) {
      expect(help).toContain(`${outcome} (`);
    }
    expect(help).not.toContain('refused (');
  });

  it('says the round trip’s topic label holds the command type, not the Kafka topic', async () => {
    expect(await helpOf(commandRoundTrip)).toContain('by command type (label topic, e.g. transfer.create)');
  });
});
