import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import { afterAll, expect, it } from 'vitest';
import { contentStorageDriver, createExternalStorage, payloadsNamespace } from '../../src/store/content-storage-driver';
import { DirectoryContentStore } from '../../src/store/directory-content-store';

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
