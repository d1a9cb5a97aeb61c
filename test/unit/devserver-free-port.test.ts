import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/devserver/free-port';

/** The TCP states of the IPv4 sockets whose local port is `port` (Linux's /proc/net/tcp, in hex). */
function socketStatesOnPort(port: number): string[] {
  const portHex = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${portHex}`))
    .map((fields) => fields[3] ?? '');
}

const timeWait = '06';

describe('freePort', () => {
  it('leaves the port in TIME_WAIT, so the OS hands it to no other listen(0) for a while', async () => {
    const port = await freePort();
    expect(socketStatesOnPort(port)).toContain(timeWait);
  });

  it('gives a port a server can listen on at once', async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', resolve);
    });
    expect(server.address()).toMatchObject({ port });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
