// Integration tests start real services against real PostgreSQL, Redis and Kafka on a 2-core machine;
// under load a beforeAll that creates a database and two dispatchers once took over Jest's default 5 s.
// A spec that needs longer sets its own.
jest.setTimeout(30_000);
