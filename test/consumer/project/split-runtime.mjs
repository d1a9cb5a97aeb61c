// Run in an install whose Temporal packages load two copies of protobufjs (the test makes one):
// toolrail refuses to make a client's External Storage and a worker, before either connects, and
// prints one JSON line with each refusal.
import { createExternalStorage, createWorker, openContentStore } from 'toolrail';

/** What `make` rejected with (name, code, message), or null when it did not. */
const refusal = (make) =>
  make().then(
    () => null,
    (error) => ({ name: error.name, code: error.code, message: error.message }),
  );

const store = openContentStore();
console.log(
  JSON.stringify({
    client: await refusal(async () => createExternalStorage(store)),
    // No connection: the refusal comes before the worker would use one.
    worker: await refusal(() => createWorker({ tools: [], contentStore: store })),
  }),
);
