// Every e2e request crosses real processes, Kafka and PostgreSQL on a 2-core machine: the first one
// after start-up (cold proof workers, fresh connections) once took over Jest's default 5 s in CI.
jest.setTimeout(30_000);
