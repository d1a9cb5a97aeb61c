import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkoutPlaceholder, machineNeutralHistory, scratchPlaceholder } from '../../replay/machine-neutral-history';
import type { JsonHistory } from '../../helpers/run-chain';

const historiesDirectory = path.resolve(__dirname, '../../replay/histories');
const checkoutRoot = path.resolve(__dirname, '../../..');

/** Every string in a history, the JSON payloads decoded. */
function stringsOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') found.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringsOf(item, found));
  else if (typeof value === 'object' && value !== null) {
    const { metadata, data } = value as { metadata?: { encoding?: string }; data?: string };
    if (typeof data === 'string' && metadata?.encoding !== undefined) {
      if (Buffer.from(metadata.encoding, 'base64').toString() === 'json/plain')
        found.push(Buffer.from(data, 'base64').toString('utf8'));
    } else Object.values(value).forEach((item) => stringsOf(item, found));
  }
  return found;
}

function historyFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? historyFiles(path.join(directory, entry.name))
      : entry.name.endsWith('.json')
        ? [path.join(directory, entry.name)]
        : [],
  );
}

// An absolute path of several segments: what a checkout, a home or a node_modules stack frame looks like.
const absolutePath = /(?<![\w./<>-])\/(?:[\w.@-]+\/){2,}/;

describe('recorded histories', () => {
  const files = historyFiles(historiesDirectory);

  it.each(files.map((file) => [path.relative(historiesDirectory, file), file]))(
    '%s names no path of the machine that recorded it',
    (_name, file) => {
      const history = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      const withPaths = stringsOf(history).filter((text) => absolutePath.test(text));
      expect(withPaths).toEqual([]);
    },
  );

  it('are written with the checkout, the temporary directory and stack traces replaced', () => {
    const data = Buffer.from(
      JSON.stringify({ directory: `${checkoutRoot}/.toolrail/content`, scratch: `${os.tmpdir()}/toolrail-store` }),
    ).toString('base64');
    const recorded = {
      events: [
        {
          result: { payloads: [{ metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data }] },
          failure: { message: `${checkoutRoot}/x.ts failed`, stackTrace: `at f (${checkoutRoot}/x.ts:1:1)` },
        },
      ],
    } as unknown as JsonHistory;
    const [event] = machineNeutralHistory(recorded).events as unknown as {
      result: { payloads: { data: string }[] };
      failure: { message: string; stackTrace: string };
    }[];
    expect(JSON.parse(Buffer.from(event!.result.payloads[0]!.data, 'base64').toString())).toEqual({
      directory: `${checkoutPlaceholder}/.toolrail/content`,
      scratch: `${scratchPlaceholder}/toolrail-store`,
    });
    expect(event!.failure).toEqual({ message: `${checkoutPlaceholder}/x.ts failed`, stackTrace: '' });
  });
});
