import net from 'node:net';

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

/** Asks the OS for a free TCP port on `host` (default 127.0.0.1). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const port = await probePort(0, host);
  if (port === undefined) throw new Error(`could not get a free port on ${host}`);
  return port;
}

/** Whether nothing listens on `port` at `host` (default 127.0.0.1) right now. */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return (await probePort(port, host)) !== undefined;
}
