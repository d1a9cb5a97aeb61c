import type { InjectedSinks, WorkerPlugin } from '@temporalio/worker';
import type { LiveSinks } from '../session';
import type { LiveChannel } from './live-channel';
import { LiveCalls } from './live-calls';
import { cancelTopic } from './live-message';
import { FeedRelay } from './feed-relay';
import type { RelayConnection } from './feed-relay';

/** Options of {@link createLiveWorker}. */
export interface LiveWorkerOptions {
  /** The channel; without one the sinks do nothing and the worker behaves as without the live channel. */
  channel: LiveChannel | undefined;
  /** The worker's connection: the relay reads histories through it (needed with a channel). */
  connection: RelayConnection | undefined;
  /** The worker's namespace: its cancellations are followed. */
  namespace: string;
  /** Close the channel when the worker stops (it was opened for this worker). Defaults to false. */
  closeChannel?: boolean;
  /** Told about problems the channel and the relay work around; defaults to none. */
  onError?: (error: Error) => void;
}

/** What a worker needs for the live channel: its sinks, the calls it runs, and a plugin for its lifetime. */
export interface LiveWorker {
  /** The `toolrailLive` sinks the session workflow calls (a worker option, `sinks`). */
  readonly sinks: InjectedSinks<LiveSinks>;
  /** The calls the activities run, for cancellations to reach; undefined without a channel. */
  readonly calls: LiveCalls | undefined;
  /**
   * While the worker runs, follows the namespace's cancellations on the channel (aborting the calls
   * they name that run here); when it stops, stops the relay (and closes the channel if it owns
   * it). Undefined without a channel.
   */
  readonly plugin: WorkerPlugin | undefined;
}

/**
 * The worker's part of the live channel: sinks that hand what the workflow tells them to a
 * {@link FeedRelay}, the registry of running calls that cancellations abort, and a plugin that
 * follows cancellations while the worker runs.
 */
export function createLiveWorker({
  channel,
  connection,
  namespace,
  closeChannel = false,
  onError = () => undefined,
}: LiveWorkerOptions): LiveWorker {
  if (channel === undefined) {
    return {
      sinks: { toolrailLive: { taskEnded: { fn: () => undefined } } },
      calls: undefined,
      plugin: undefined,
    };
  }
  if (connection === undefined) throw new TypeError("the live channel's relay needs the worker's connection");
  const calls = new LiveCalls();
  const relay = new FeedRelay({ channel, connection, onCancel: (cancel) => calls.cancel(cancel), onError });
  return {
    sinks: {
      toolrailLive: {
        taskEnded: {
          fn: (info, items) => {
            for (const item of items)
              if ('event' in item) relay.feedEvent(info, item.event);
              else relay.callsCancelled(info, item.cancelled);
          },
        },
      },
    },
    calls,
    plugin: {
      name: 'toolrail.live',
      async runWorker(worker, next) {
        await channel.prepare();
        const cancellations = channel.subscribe(cancelTopic(namespace), {
          onMessage: (message) => {
            if (message.kind === 'cancel') calls.cancel(message);
          },
        });
        try {
          await next(worker);
        } finally {
          cancellations.close();
          relay.close();
          if (closeChannel) await channel.close();
        }
      },
    },
  };
}
