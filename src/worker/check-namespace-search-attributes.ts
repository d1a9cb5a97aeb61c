import { Runtime } from '@temporalio/worker';
import type { NativeConnection } from '@temporalio/worker';
import { toolrailSearchAttributes } from '../session';
import { describeMissingSearchAttributes, missingSearchAttributes } from './missing-search-attributes';
import { ToolrailPluginError } from './toolrail-plugin-error';

/** Namespaces (by connection) whose missing search attributes were already logged: `warn` says so once. */
const warned = new WeakMap<NativeConnection, Set<string>>();

/**
 * Checks that `namespace` has every search attribute toolrail sets, with toolrail's types. Missing
 * ones: `require` throws a {@link ToolrailPluginError} (`SEARCH_ATTRIBUTES_MISSING`) naming them and
 * the command that registers them; `warn` logs that once per namespace and connection. A server
 * that does not let the worker list them (e.g. an API key without that permission) is logged, not
 * refused.
 */
export async function checkNamespaceSearchAttributes({
  connection,
  namespace,
  mode,
}: {
  connection: NativeConnection;
  namespace: string;
  mode: 'require' | 'warn';
}): Promise<void> {
  const { logger } = Runtime.instance();
  let registered: Record<string, number>;
  try {
    const listed = await connection.operatorService.listSearchAttributes({ namespace });
    registered = { ...listed.systemAttributes, ...listed.customAttributes };
  } catch (error) {
    logger.warn(
      `toolrail could not list the search attributes of namespace "${namespace}" (${error instanceof Error ? error.message : String(error)}); sessions need ${toolrailSearchAttributes.map(({ name }) => name).join(', ')}`,
    );
    return;
  }
  const missing = missingSearchAttributes(toolrailSearchAttributes, registered);
  if (missing.length === 0) return;
  const message = describeMissingSearchAttributes(namespace, missing);
  if (mode === 'require') throw new ToolrailPluginError({ code: 'SEARCH_ATTRIBUTES_MISSING', message });
  const logged = warned.get(connection) ?? new Set<string>();
  warned.set(connection, logged);
  if (logged.has(namespace)) return;
  logged.add(namespace);
  logger.warn(message);
}
