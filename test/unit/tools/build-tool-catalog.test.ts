import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildToolCatalog } from '../../../src/tools/catalog/build-tool-catalog';
import { defineTool } from '../../../src/tools/define-tool';
import type { ToolDefinition } from '../../../src/tools/tool-definition';
import { ToolRegistry } from '../../../src/tools/tool-registry';

type Extra = Partial<ToolDefinition<z.ZodObject, string>>;
const make = (name: string, extra: Extra = {}) =>
  defineTool({ name, description: `Does ${name}.`, inputSchema: z.object({}), execute: () => name, ...extra });
const names = (registry: ToolRegistry, revealed?: string[]) =>
  buildToolCatalog({ registry, ...(revealed === undefined ? {} : { revealed }) }).tools.map((tool) => tool.name);

describe('buildToolCatalog', () => {
  it('sorts tools by name whatever the registration order', () => {
    const first = new ToolRegistry([make('write_file'), make('read_file'), make('grep')]);
    const second = new ToolRegistry([make('grep'), make('read_file'), make('write_file')]);
    expect(names(first)).toEqual(['grep', 'read_file', 'write_file']);
    expect(buildToolCatalog({ registry: first }).version).toBe(buildToolCatalog({ registry: second }).version);
  });

  it('leaves out disabled tools', () => {
    const registry = new ToolRegistry([make('read_file'), make('deploy', { isEnabled: false })]);
    expect(names(registry)).toEqual(['read_file']);
  });

  it('hides deferred tools behind tool_search until they are revealed', () => {
    const registry = new ToolRegistry([
      make('read_file'),
      make('send_mail', { shouldDefer: true }),
      make('calendar', { shouldDefer: true }),
    ]);
    const catalog = buildToolCatalog({ registry });
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['read_file', 'tool_search']);
    expect(catalog.hiddenDeferredTools).toEqual(['calendar', 'send_mail']);
  });

  it('appends revealed tools in reveal order so the earlier prefix never moves', () => {
    const registry = new ToolRegistry([
      make('zip'),
      make('send_mail', { shouldDefer: true }),
      make('calendar', { shouldDefer: true }),
    ]);
    expect(names(registry, ['send_mail'])).toEqual(['tool_search', 'zip', 'send_mail']);
    expect(names(registry, ['send_mail', 'calendar'])).toEqual(['tool_search', 'zip', 'send_mail', 'calendar']);
    expect(buildToolCatalog({ registry, revealed: ['send_mail', 'calendar'] }).hiddenDeferredTools).toEqual([]);
  });

  it('ignores revealed names that are unknown, not deferred, or repeated', () => {
    const registry = new ToolRegistry([make('zip'), make('send_mail', { shouldDefer: true })]);
    expect(names(registry, ['nope', 'zip', 'send_mail', 'send_mail', '__proto__'])).toEqual([
      'tool_search',
      'zip',
      'send_mail',
    ]);
  });

  it('keeps an alwaysLoad tool in the catalog even when deferred', () => {
    const registry = new ToolRegistry([make('ask_user', { shouldDefer: true, alwaysLoad: true })]);
    expect(names(registry)).toEqual(['ask_user']);
  });

  it('leaves tool_search out when nothing is deferred', () => {
    expect(names(new ToolRegistry([make('read_file')]))).toEqual(['read_file']);
  });

  it('changes version exactly when the content changes', () => {
    const registry = new ToolRegistry([make('read_file')]);
    const before = buildToolCatalog({ registry }).version;
    expect(buildToolCatalog({ registry }).version).toBe(before);
    registry.register(make('write_file'));
    expect(buildToolCatalog({ registry }).version).not.toBe(before);
  });

  it('is plain JSON, with never-offloaded written as null', () => {
    const registry = new ToolRegistry([
      make('read_file', { concurrency: 'READ_ONLY', maxResultSizeChars: Infinity, aliases: ['cat'] }),
    ]);
    const catalog = buildToolCatalog({ registry });
    expect(JSON.parse(JSON.stringify(catalog))).toEqual(catalog);
    expect(catalog.tools[0]).toMatchInlineSnapshot(`
      {
        "aliases": [
          "cat",
        ],
        "description": "Does read_file.",
        "flags": {
          "concurrency": "READ_ONLY",
          "deferred": false,
          "interruptBehavior": "block",
          "maxResultSizeChars": null,
          "origin": "local",
          "requiresPermission": false,
          "requiresUserInteraction": false,
        },
        "inputSchema": {
          "additionalProperties": false,
          "properties": {},
          "type": "object",
        },
        "name": "read_file",
        "strictInputSchema": {
          "additionalProperties": false,
          "properties": {},
          "required": [],
          "type": "object",
        },
      }
    `);
  });

  it('says why a tool cannot run this turn, in its entry and at the start of its description', () => {
    let down: string | undefined = 'its server exited with code 1';
    const remote = Object.freeze({ ...make('remote_search'), unavailableReason: () => down });
    const registry = new ToolRegistry([make('read_file'), remote]);
    const catalog = buildToolCatalog({ registry });
    expect(catalog.tools.find((tool) => tool.name === 'remote_search')).toMatchObject({
      unavailable: 'its server exited with code 1',
      description: '[Unavailable now: its server exited with code 1]\n\nDoes remote_search.',
    });
    expect(catalog.tools.find((tool) => tool.name === 'read_file')).not.toHaveProperty('unavailable');
    down = undefined;
    const back = buildToolCatalog({ registry });
    expect(back.tools.find((tool) => tool.name === 'remote_search')).toMatchObject({
      description: 'Does remote_search.',
    });
    expect(back.version).not.toBe(catalog.version);
  });
});
