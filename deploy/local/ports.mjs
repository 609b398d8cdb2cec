import { createServer } from 'node:net';

/** Asks the OS for a currently unused TCP port on 127.0.0.1. */
export async function findFreePort() {
  const [port] = await findFreePorts(1);
  return port;
}

/** Asks the OS for `count` distinct unused TCP ports on 127.0.0.1. */
export async function findFreePorts(count) {
  // All listeners stay open until every port is known, so the OS cannot hand out the same port twice.
  const servers = await Promise.all(Array.from({ length: count }, listenOnAnyPort));
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function listenOnAnyPort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}
