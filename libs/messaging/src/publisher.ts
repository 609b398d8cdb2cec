/** A message as it goes on a topic: keyed by aggregate id so order holds per aggregate. */
export interface OutgoingMessage {
  topic: string;
  key: string;
  /** The JSON-serialised envelope. */
  value: string;
  headers?: Record<string, string>;
}

/** Publishes already-built messages to topics: Kafka in the distributed mode, the in-process bus otherwise. */
export abstract class MessagePublisher {
  abstract publish(messages: OutgoingMessage[]): Promise<void>;
  abstract close(): Promise<void>;
}
