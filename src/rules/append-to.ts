/** Appends `value` to the list `map` holds for `key`, starting the list when there is none. */
export function appendTo<Key, Value>(map: Map<Key, Value[]>, key: Key, value: Value): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
