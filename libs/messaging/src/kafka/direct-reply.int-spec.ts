import { startMetricsServer, type MetricsServer } from '@cts/platform';
import { Kafka, logLevel } from 'kafkajs';
import { firstValueFrom, timeout } from 'rxjs';
import { INTERNAL_REPLY_PATH, isDirectReply, replyUrlOf } from './direct-reply';
import { KafkaBatchServer } from './kafka-batch.server';
import { KafkaCommandClient } from './kafka-command.client';
import { kafkaServerOptions } from './kafka.config';
import { parseBrokers } from './kafka-connection';
import { provisionTopics } from './topic-provisioner';

jest.setTimeout(60_000);

describe('replies straight to the replica that asked, the reply topic as the way back otherwise (real broker)', () => {
  const brokers = parseBrokers(process.env.KAFKA_BROKERS ?? '');
  const admin = new Kafka({ brokers, clientId: 'direct-reply-test', logLevel: logLevel.NOTHING }).admin();
  const suffix = `${Date.now().toString(36)}`;
  const app = `direct-${suffix}`;
  const commands = `echo-${suffix}.commands`;
  const settings = { brokers, clientId: 'direct-reply-test', groupSuffix: `-${suffix}` };
  // As deployed: the service posts with INTERNAL_TOKEN and the asking replica requires it.
  const internalToken = 'itk_0123456789abcdefghijklmnopqrstuv';
  let server: KafkaBatchServer;
  let client: KafkaCommandClient;
  let internal: MetricsServer;
  const posted: unknown[] = [];

  beforeAll(async () => {
    await admin.connect();
    await provisionTopics({ brokers }, [
      { name: commands, partitions: 1, retentionMs: 3_600_000 },
      { name: `${app}.replies`, partitions: 1, retentionMs: 3_600_000 },
    ]);
    server = new KafkaBatchServer(kafkaServerOptions(`echo-${suffix}`, settings), { internalToken });
    server.addHandler(commands, (data: unknown) => Promise.resolve({ echoed: data }), false);
    await new Promise<void>((resolve, reject) => {
      void server.listen((error?: unknown) => (error ? reject(error as Error) : resolve()));
    });
    client = new KafkaCommandClient(settings, app);
    await client.connect();
    internal = await startMetricsServer(
      0,
      '127.0.0.1',
      {
        [INTERNAL_REPLY_PATH]: (reply) => {
          posted.push(reply);
          return isDirectReply(reply) && client.receiveReply(reply);
        },
      },
      internalToken,
    );
  });

  afterAll(async () => {
    await client.close();
    await server.close();
    await internal.close();
    await admin.disconnect();
  });

  const send = (n: number) =>
    firstValueFrom(client.send(commands, { type: 'echo', n }).pipe(timeout(20_000)));
  const repliesOnTheTopic = async () => {
    const [partition] = await admin.fetchTopicOffsets(`${app}.replies`);
    return Number(partition?.high ?? 0);
  };

  it('posts the reply, with the internal token, to the address the command names and writes nothing to the reply topic', async () => {
    client.answerAt(replyUrlOf('127.0.0.1', internal.port));
    const before = await repliesOnTheTopic();

    expect(await send(1)).toEqual({ echoed: { type: 'echo', n: 1 } });
    expect(posted).toEqual([expect.objectContaining({ response: { echoed: { type: 'echo', n: 1 } } })]);
    expect(await repliesOnTheTopic()).toBe(before);
  });

  it('answers over the reply topic when the address cannot be reached', async () => {
    const closed = await startMetricsServer(0, '127.0.0.1');
    await closed.close();
    client.answerAt(replyUrlOf('127.0.0.1', closed.port));
    const before = await repliesOnTheTopic();

    expect(await send(2)).toEqual({ echoed: { type: 'echo', n: 2 } });
    expect(await repliesOnTheTopic()).toBe(before + 1);
  });

  it('answers over the reply topic when the replica there no longer waits for that reply', async () => {
    const stranger = await startMetricsServer(0, '127.0.0.1', { [INTERNAL_REPLY_PATH]: () => false });
    try {
      client.answerAt(replyUrlOf('127.0.0.1', stranger.port));
      const before = await repliesOnTheTopic();

      expect(await send(3)).toEqual({ echoed: { type: 'echo', n: 3 } });
      expect(await repliesOnTheTopic()).toBe(before + 1);
    } finally {
      await stranger.close();
    }
  });

  it('answers over the reply topic when the replica there refuses the token (INTERNAL_TOKEN mid-rotation)', async () => {
    const rotated = await startMetricsServer(
      0,
      '127.0.0.1',
      {
        [INTERNAL_REPLY_PATH]: (reply) => {
          posted.push(reply);
          return isDirectReply(reply) && client.receiveReply(reply);
        },
      },
      `${internalToken.slice(0, -1)}x`,
    );
    try {
      client.answerAt(replyUrlOf('127.0.0.1', rotated.port));
      const before = await repliesOnTheTopic();
      const postedBefore = posted.length;

      expect(await send(4)).toEqual({ echoed: { type: 'echo', n: 4 } });
      expect(await repliesOnTheTopic()).toBe(before + 1);
      expect(posted).toHaveLength(postedBefore);
    } finally {
      await rotated.close();
    }
  });
});
