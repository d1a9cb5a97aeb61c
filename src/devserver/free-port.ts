import net from 'node:net';
import { once } from 'node:events';

/** Listens on `port` at `host` and closes again: the port it got, or `undefined` when it is taken. */
function probePort(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const address = server.address();
      server.close(() => resolve(address && typeof address === 'object' ? address.port : undefined));
    });
  });
}

/**
 * Asks the OS for a free TCP port on `host` (default 127.0.0.1) and keeps the OS from handing it
 * out again for a minute. Linux picks ports for `listen(0)` at random and may pick a port it has
 * just given, so two processes asking at once could get the same one. Here the port gets one
 * connection that this side closes first, which leaves it in TIME_WAIT (60 s on Linux): the OS gives
 * it to no other `listen(0)` or outgoing connection meanwhile, and a server that sets
 * `SO_REUSEADDR` (Node, Go and PostgreSQL do) can still listen on it. (The Temporal CLI reserves
 * the ports of its dev server the same way.)
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  server.unref();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address !== 'object') {
    server.close();
    throw new Error(`could not get a free port on ${host}`);
  }
  const accepted = once(server, 'connection') as Promise<[net.Socket]>;
  const client = net.connect(address.port, host);
  client.on('error', () => undefined);
  const [socket] = await accepted;
  const clientClosed = once(client, 'close');
  // The accepting side closes first: its socket, not the client's, waits in TIME_WAIT on the port.
  socket.end();
  client.on('end', () => client.end());
  await clientClosed;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}

/** Whether nothing listens on `port` at `host` (default 127.0.0.1) right now. */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await probePort(port, host)) !== undefined;
}
