import { createRequire } from 'node:module';
import type { History } from '@temporalio/common/lib/proto-utils';

/**
 * History ⇄ Temporal's JSON form (the `temporal workflow show --output json` norm), like the SDK's
 * `historyToJSON` / `historyFromJSON`, but with protobufjs's ProtoJSON extension loaded from the very
 * copy of protobufjs that `@temporalio/proto` built its types with. The SDK's own helpers load it from
 * `@temporalio/common`'s copy; when npm installs two copies (it does here: `@grpc/proto-loader` holds
 * the hoisted protobufjs 7, so `@temporalio/common` and `@temporalio/proto` each nest their own 8.x)
 * every call fails with "type must be a Type", and so does `Worker.runReplayHistory` given a JSON
 * history. Replay is therefore always given the decoded `History` object from here.
 */
interface ProtoJson {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
}
interface ProtoRoot {
  lookupType(name: string): { fromObject(value: unknown): unknown };
}

const requireFromCommon = createRequire(require.resolve('@temporalio/common'));
const requireFromProto = createRequire(requireFromCommon.resolve('@temporalio/proto'));
const protoJson = requireFromProto('protobufjs/ext/protojson') as ProtoJson;
const { patchProtobufRoot } = requireFromProto('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot: <T>(root: T) => ProtoRoot;
};
const historyType = patchProtobufRoot(requireFromProto('@temporalio/proto') as unknown).lookupType(
  'temporal.api.history.v1.History',
);

/** A history as a JSON value in Temporal's JSON form. */
export function historyToJsonValue(history: History): unknown {
  return protoJson.toJson(historyType, historyType.fromObject(history));
}

/** A history as pretty-printed JSON text in Temporal's JSON form (what the replay files hold). */
export function historyToJsonText(history: History): string {
  return `${JSON.stringify(historyToJsonValue(history), null, 2)}\n`;
}

/** Decodes a history in Temporal's JSON form (unknown fields are ignored, as the SDK does). */
export function historyFromJsonValue(json: unknown): History {
  if (typeof json !== 'object' || json === null || !Array.isArray((json as { events?: unknown }).events)) {
    throw new TypeError('a history must be an object with an array of events');
  }
  return protoJson.fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}
