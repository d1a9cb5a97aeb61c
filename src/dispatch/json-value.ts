/** A value that survives `JSON.stringify` / `JSON.parse` unchanged: what crosses Temporal boundaries. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A plain JSON object. */
export interface JsonObject {
  [key: string]: JsonValue;
}
