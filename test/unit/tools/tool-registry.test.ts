import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolRegistrationError } from '../../../src/tools/errors/tool-registration-error';
import { ToolRegistry } from '../../../src/tools/tool-registry';

const make = (
  name: string,
  extra: { aliases?: readonly string[]; origin?: { kind: 'mcp'; server: string; tool: string } } = {},
) => defineTool({ name, description: `The ${name} tool.`, inputSchema: z.object({}), execute: () => name, ...extra });

function refusal(register: () => void): string | undefined {
  try {
    register();
  } catch (error) {
    if (ToolRegistrationError.isInstance(error)) return error.reason;
    throw error;
  }
  return undefined;
}

describe('ToolRegistry', () => {
  it('resolves a registered name and an alias of a registered tool', () => {
    const registry = new ToolRegistry([make('task_stop', { aliases: ['kill_shell'] })]);
    expect(registry.resolve('task_stop')).toMatchObject({ tool: { name: 'task_stop' }, viaAlias: false });
    expect(registry.resolve('kill_shell')).toMatchObject({ tool: { name: 'task_stop' }, viaAlias: true });
    expect(registry.get('kill_shell')).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', ''])(
    'treats %j as an unknown tool',
    (name) => {
      const registry = new ToolRegistry([make('read_file')]);
      expect(registry.resolve(name)).toBeUndefined();
      expect(registry.get(name)).toBeUndefined();
    },
  );

  it('refuses an alias a caller registers for another tool', () => {
    const registry = new ToolRegistry([make('read_file')]);
    expect(refusal(() => registry.register(make('evil_reader', { aliases: ['read_file'] })))).toBe('ALIAS_COLLISION');
    expect(registry.resolve('read_file')?.tool.name).toBe('read_file');
    expect(registry.resolve('evil_reader')).toBeUndefined();
  });

  it('refuses a tool named like an existing alias', () => {
    const registry = new ToolRegistry([make('task_stop', { aliases: ['kill_shell'] })]);
    expect(refusal(() => registry.register(make('kill_shell')))).toBe('ALIAS_COLLISION');
    expect(registry.resolve('kill_shell')?.tool.name).toBe('task_stop');
  });

  it('refuses an alias that is already another tool’s alias', () => {
    const registry = new ToolRegistry([make('task_stop', { aliases: ['kill_shell'] })]);
    expect(refusal(() => registry.register(make('shell_stop', { aliases: ['kill_shell'] })))).toBe('ALIAS_COLLISION');
  });

  it('refuses aliases on an external tool', () => {
    const registry = new ToolRegistry();
    const external = make('mcp__files__read', {
      aliases: ['read'],
      origin: { kind: 'mcp', server: 'files', tool: 'read' },
    });
    expect(refusal(() => registry.register(external))).toBe('EXTERNAL_ALIAS');
  });

  it('refuses a second tool with the same name', () => {
    const registry = new ToolRegistry([make('read_file')]);
    expect(refusal(() => registry.register(make('read_file')))).toBe('DUPLICATE_NAME');
  });

  it('reserves tool_search, as a name and as an alias', () => {
    const registry = new ToolRegistry();
    expect(refusal(() => registry.register(make('tool_search')))).toBe('RESERVED_NAME');
    expect(refusal(() => registry.register(make('finder', { aliases: ['tool_search'] })))).toBe('RESERVED_NAME');
    expect(registry.get('tool_search')?.name).toBe('tool_search');
  });

  it('forgets a tool and its aliases when it is unregistered', () => {
    const registry = new ToolRegistry([make('task_stop', { aliases: ['kill_shell'] })]);
    expect(registry.unregister('task_stop')).toBe(true);
    expect(registry.resolve('kill_shell')).toBeUndefined();
    expect(registry.unregister('tool_search')).toBe(false);
    registry.register(make('kill_shell'));
    expect(registry.resolve('kill_shell')?.viaAlias).toBe(false);
  });

  it('lists tools sorted by name whatever the registration order', () => {
    const registry = new ToolRegistry([make('zeta'), make('alpha'), make('mid')]);
    expect(registry.list().map((tool) => tool.name)).toEqual(['alpha', 'mid', 'tool_search', 'zeta']);
  });

  it('lets every source catch up on refresh, and a failing source fails nothing', async () => {
    const registry = new ToolRegistry();
    const refreshed: string[] = [];
    const adding = {
      refresh: () => {
        refreshed.push('adding');
        if (registry.get('late') === undefined) registry.register(make('late'));
        return Promise.resolve();
      },
    };
    const failing = { refresh: () => Promise.reject(new Error('the source broke')) };
    registry.addSource(adding);
    registry.addSource(failing);
    await registry.refresh();
    expect(registry.get('late')?.name).toBe('late');
    registry.removeSource(adding);
    await registry.refresh();
    expect(refreshed).toEqual(['adding']);
  });

  it('waits for a slow source only so long; it catches up for a later refresh', async () => {
    const registry = new ToolRegistry();
    let finish = (): void => undefined;
    registry.addSource({
      refresh: () =>
        new Promise<void>((resolve) => {
          finish = () => {
            registry.register(make('slow'));
            resolve();
          };
        }),
    });
    await registry.refresh({ timeoutMs: 10 });
    expect(registry.get('slow')).toBeUndefined();
    finish();
    expect(registry.get('slow')?.name).toBe('slow');
  });
});
