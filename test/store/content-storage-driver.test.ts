import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StorageDriverClaim, defaultPayloadConverter } from '@temporalio/common';
import { ExternalStorageRunner, encodeReferencePayload } from '@temporalio/common/lib/internal-non-workflow';
import { afterAll, describe, expect, it } from 'vitest';
import { TolerantPayloadConverter, undecodableMarker } from '../../src/session/payload-converter';
import type { UndecodablePayload } from '../../src/session/payload-converter';
import { readMessageInput } from '../../src/session/session-messages';
import { ClaimUnavailableError } from '../../src/store/claim-unavailable-error';
import { contentStorageDriver, createExternalStorage, payloadsNamespace } from '../../src/store/content-storage-driver';
import { DirectoryContentStore, sessionDirectoryName } from '../../src/store/directory-content-store';
import { FlakyContentStore } from '../helpers/flaky-content-store';

const root = mkdtempSync(path.join(os.tmpdir(), 'toolrail-driver-'));
const store = new DirectoryContentStore(root);
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('retrieves the payloads it stored, under the target workflow id', async () => {
  const driver = contentStorageDriver(store);
  const payloads = [
    defaultPayloadConverter.toPayload({ text: '你好🎉'.repeat(100) }),
    defaultPayloadConverter.toPayload(42),
  ];
  const claims = await driver.store({ target: { kind: 'workflow', namespace: 'default', id: 'session-7' } }, payloads);
  expect(claims.map((claim) => claim.claimData.session)).toEqual(['session-7', 'session-7']);
  const back = await driver.retrieve({}, claims);
  expect(back.map((payload) => defaultPayloadConverter.fromPayload(payload))).toEqual([
    { text: '你好🎉'.repeat(100) },
    42,
  ]);
});

it('stores payloads without a target under the shared namespace', async () => {
  const driver = contentStorageDriver(store);
  const [claim] = await driver.store({}, [defaultPayloadConverter.toPayload('loose')]);
  expect(claim?.claimData.session).toBe(payloadsNamespace);
});

it('builds external storage with the given threshold and the content driver', () => {
  const storage = createExternalStorage(store, { thresholdBytes: 1024 });
  expect(storage.payloadSizeThreshold).toBe(1024);
  expect(storage.drivers.map((driver) => driver.name)).toEqual(['toolrail-content']);
});

describe('reading a claim: decided by its first read, the same on every later read', () => {
  const driver = contentStorageDriver(store);
  const converter = new TolerantPayloadConverter();
  const target = { kind: 'workflow', namespace: 'default' } as const;
  /** A claim of a 2 KB text under a session of its own, and the file its content is in. */
  const storeOne = async (session: string, text = `claim of ${session}: ${'z'.repeat(2_000)}`) => {
    const [claim] = await driver.store({ target: { ...target, id: session } }, [converter.toPayload(text)]);
    if (claim === undefined) throw new Error('no claim');
    const file = path.join(root, 'sessions', sessionDirectoryName(session), claim.claimData.key ?? '');
    return { claim, file, text, bytes: readFileSync(file) };
  };
  const readOne = async (claim: StorageDriverClaim): Promise<unknown> => {
    const [payload] = await driver.retrieve({}, [claim]);
    if (payload === undefined) throw new Error('no payload');
    return converter.fromPayload(payload);
  };
  const unreadable = (value: unknown) => (value as UndecodablePayload)[undecodableMarker].claim;

  it('reads a claim again and again once its first read found its content, and waits while the content is gone', async () => {
    const { claim, file, text, bytes } = await storeOne('read-then-deleted');
    expect(await readOne(claim)).toBe(text);
    expect(await readOne(claim)).toBe(text);
    rmSync(file);
    const waiting = readOne(claim);
    await expect(waiting).rejects.toBeInstanceOf(ClaimUnavailableError);
    await expect(waiting).rejects.toThrow(
      /^Waiting for the content store to read an External Storage claim \(the session read it before\): Content [0-9a-f]{64} of session "read-then-deleted" is not in directory:/,
    );
    writeFileSync(file, bytes);
    expect(await readOne(claim)).toBe(text);
  });

  it('reads a claim whose content was gone at its first read as unreadable, naming why, even once the content is back', async () => {
    const { claim, file, bytes } = await storeOne('deleted-before-read');
    rmSync(file);
    const first = await readOne(claim);
    expect(unreadable(first)).toEqual({
      code: 'CONTENT_MISSING',
      message: `its content (key ${claim.claimData.key} of session "deleted-before-read") is not in the content store: it was deleted before a worker read it`,
    });
    expect(readMessageInput('userMessage', first)).toEqual({
      ok: false,
      problem: `the payload is an External Storage claim that cannot be read (CONTENT_MISSING): ${unreadable(first)?.message}`,
    });
    writeFileSync(file, bytes);
    expect(await readOne(claim)).toEqual(first);
  });

  it('reads a claim whose content was corrupt at its first read as unreadable', async () => {
    const { claim, file } = await storeOne('corrupt-before-read');
    writeFileSync(file, 'tampered');
    expect(unreadable(await readOne(claim))).toMatchObject({ code: 'CONTENT_CORRUPT' });
  });

  it('waits, deciding nothing, while the store holds nothing of the claim (its session deleted, or another store)', async () => {
    const { claim, text } = await storeOne('session-deleted');
    const backup = mkdtempSync(path.join(os.tmpdir(), 'toolrail-driver-backup-'));
    const sessionDirectory = path.join(root, 'sessions', sessionDirectoryName('session-deleted'));
    cpSync(sessionDirectory, backup, { recursive: true });
    await store.deleteSession('session-deleted');
    await expect(readOne(claim)).rejects.toThrow(
      /^Waiting for the content store to read an External Storage claim \(the store holds nothing of this claim\): Content /,
    );
    cpSync(backup, sessionDirectory, { recursive: true });
    rmSync(backup, { recursive: true, force: true });
    expect(await readOne(claim)).toBe(text);
  });

  it('waits, deciding nothing, while the store is unavailable', async () => {
    const flaky = new FlakyContentStore(store);
    const { claim, text } = await storeOne('store-down');
    flaky.fail('connect ECONNREFUSED 127.0.0.1:5432', { reads: true });
    const [down] = await Promise.allSettled([contentStorageDriver(flaky).retrieve({}, [claim])]);
    expect(down.status === 'rejected' && String(down.reason)).toMatch(
      /Waiting for the content store to read an External Storage claim: Content store directory:.* is unavailable .*ECONNREFUSED/,
    );
    flaky.heal();
    expect(await readOne(claim)).toBe(text);
  });

  it('reads a claim without session or key, and one of a driver toolrail lacks, as unreadable, naming why', async () => {
    expect(unreadable(await readOne(new StorageDriverClaim({ bucket: 'b' })))).toEqual({
      code: 'CLAIM_MALFORMED',
      message: `the claim {"bucket":"b"} names no session or key: toolrail's External Storage did not write it`,
    });
    // The SDK's own path: a reference payload naming another driver, read through toolrail's External Storage.
    const runner = new ExternalStorageRunner(createExternalStorage(store));
    const reference = encodeReferencePayload({
      driverName: 's3',
      claim: new StorageDriverClaim({ bucket: 'b', key: 'k' }),
      sizeBytes: 300_000,
    });
    const [payload] = await runner.retrieve([reference]);
    const why = unreadable(converter.fromPayload(payload ?? {}));
    expect(why?.code).toBe('DRIVER_UNKNOWN');
    expect(why?.message).toContain(
      `it names External Storage driver "s3", which toolrail's External Storage does not have`,
    );
  });

  it('reads a claim an earlier toolrail wrote (no id) while its content is there, and waits while it is not', async () => {
    const { claim, file, text } = await storeOne('earlier-claim');
    const earlier = new StorageDriverClaim({ session: 'earlier-claim', key: claim.claimData.key ?? '' });
    expect(await readOne(earlier)).toBe(text);
    rmSync(file);
    await expect(readOne(earlier)).rejects.toThrow(/\(a claim of an earlier toolrail\): Content /);
  });
});
