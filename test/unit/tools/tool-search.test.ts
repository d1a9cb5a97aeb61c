import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/define-tool';
import { ToolRegistry } from '../../../src/tools/tool-registry';
import { searchTools } from '../../../src/tools/tool-search/search-tools';

const make = (name: string, description: string, searchHint = '') =>
  defineTool({
    name,
    description,
    inputSchema: z.object({ to: z.string() }),
    shouldDefer: true,
    searchHint,
    execute: () => name,
  });

const tools = [
  make('send_mail', 'Sends an email message to a recipient.', 'smtp inbox'),
  make('calendar_invite', 'Creates a calendar event and invites people by email.'),
  make('slack_post', 'Posts a message to a Slack channel.'),
];

describe('searchTools', () => {
  it('returns exactly the selected names, in the order asked', () => {
    const found = searchTools({ tools, query: 'select:slack_post, send_mail,missing', maxResults: 5 });
    expect(found.map((tool) => tool.name)).toEqual(['slack_post', 'send_mail']);
  });

  it('ranks name matches above hint matches above description matches', () => {
    expect(searchTools({ tools, query: 'mail', maxResults: 5 }).map((tool) => tool.name)).toEqual(['send_mail']);
    expect(searchTools({ tools, query: 'email', maxResults: 5 }).map((tool) => tool.name)).toEqual([
      'calendar_invite',
      'send_mail',
    ]);
    expect(searchTools({ tools, query: 'message smtp', maxResults: 5 }).map((tool) => tool.name)).toEqual([
      'send_mail',
      'slack_post',
    ]);
  });

  it('caps the number of results and finds nothing for an empty query', () => {
    expect(searchTools({ tools, query: 'email message', maxResults: 1 })).toHaveLength(1);
    expect(searchTools({ tools, query: '  ', maxResults: 5 })).toEqual([]);
  });
});

describe('tool_search', () => {
  it('searches only enabled deferred tools and lists what it reveals', async () => {
    const registry = new ToolRegistry([
      ...tools,
      defineTool({
        name: 'mail_admin',
        description: 'Mail server admin.',
        inputSchema: z.object({}),
        shouldDefer: true,
        isEnabled: false,
        execute: () => '',
      }),
      defineTool({ name: 'mail_read', description: 'Reads mail.', inputSchema: z.object({}), execute: () => '' }),
    ]);
    const search = registry.get('tool_search');
    expect(search?.classify({ query: 'mail' })).toEqual({
      concurrencySafe: true,
      readOnly: true,
      destructive: false,
      openWorld: false,
    });
    const output = await search?.execute(
      { query: 'mail' },
      {
        sessionId: 's',
        callId: 'c',
        interactive: false,
        signal: new AbortController().signal,
        idempotencyKey: 'k',
        heartbeat: () => undefined,
      },
    );
    expect(output).toMatchObject({
      revealed: ['send_mail'],
      matches: [{ name: 'send_mail', inputSchema: { type: 'object' } }],
    });
  });
});
