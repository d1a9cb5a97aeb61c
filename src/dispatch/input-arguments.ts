/** The first argument of an input sent in parts: how many parts of its JSON follow. */
export interface InputParts {
  readonly inputParts: number;
}

/** An activity's arguments: its input whole, or {@link InputParts} and the input's JSON in parts. */
export type InputArguments<T> = [input: T] | [parts: InputParts, ...json: string[]];

/**
 * Longest part, in UTF-16 code units. Once the payload converter writes a part as a JSON string,
 * each code unit takes at most 3 bytes of UTF-8 (a quote or a backslash 2, a surrogate half 2, any
 * other BMP character 3; control characters are already escaped in the input's JSON), so a part is
 * at most 192 KiB: under Temporal's 256 KiB External Storage threshold, with room for a codec's header.
 */
const maxPartLength = 65_536;

/**
 * The arguments that carry `input` to a local activity: the input itself when its JSON is short,
 * else the JSON in parts, so that no payload of the activity's input is over the External Storage
 * threshold. A local activity's input never reaches the Temporal server, yet the worker would offload
 * a big one to External Storage when it completes the workflow task; a store that is down then
 * fails the workflow task instead of the activity (whose store failure the session waits on, saying
 * so). Deterministic: workflow code calls it.
 */
export function inputArguments<T>(input: T): InputArguments<T> {
  const json = JSON.stringify(input);
  if (json.length <= maxPartLength) return [input];
  const parts: string[] = [];
  for (let start = 0; start < json.length; start += maxPartLength) parts.push(json.slice(start, start + maxPartLength));
  return [{ inputParts: parts.length }, ...parts];
}

/** The input that {@link inputArguments} carried: the first argument, or the parts joined and parsed. */
export function inputOf<T>(args: InputArguments<T>): T {
  const [first, ...parts] = args;
  if (!isInputParts(first)) return first;
  if (parts.length !== first.inputParts) {
    throw new TypeError(`an input sent in ${String(first.inputParts)} parts arrived in ${String(parts.length)}`);
  }
  return JSON.parse(parts.join('')) as T;
}

function isInputParts(value: unknown): value is InputParts {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 1 &&
    typeof (value as { inputParts?: unknown }).inputParts === 'number'
  );
}
