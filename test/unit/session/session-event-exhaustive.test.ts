import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const sessionEvents = path.join(root, 'src/session/session-events.ts');
const feedEvents = path.join(root, 'src/session/feed-events.ts');

/** Every file that handles session events or feed events, each with a switch over every type. */
const handlers = [
  'workflows/session-state.ts',
  'workflows/transcript-view.ts',
  'workflows/temporal-ui-view.ts',
  'workflows/session-spans.ts',
  'workflows/feed-view.ts',
  'src/session/feed-event-of.ts',
  'src/client/ui-message-chunks.ts',
  'src/cli/render/render-feed-event.ts',
];

/** A test-only event type, added to a union by changing its file's text before the compiler reads it. */
const addedEvent = (union: string) => (text: string) =>
  text.replace(`export type ${union} =\n`, `export type ${union} =\n  | { type: 'test_only_event'; note: string }\n`);

/**
 * The handler files the compiler finds errors in, with the project's options, after `changes` (by
 * file) to their sources: each the `never` of a switch's last case, which a type it lacks reaches.
 */
function filesWithErrors(changes: ReadonlyMap<string, (text: string) => string>): string[] {
  const { config } = ts.readConfigFile(path.join(root, 'tsconfig.json'), (file) => ts.sys.readFile(file)) as {
    config: unknown;
  };
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, root);
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  host.readFile = (file) => {
    const text = readFile(file);
    const change = changes.get(path.resolve(file));
    return text !== undefined && change !== undefined ? change(text) : text;
  };
  const files = handlers.map((file) => path.join(root, file));
  const program = ts.createProgram({ rootNames: files, options, host });
  for (const file of changes.keys()) expect(program.getSourceFile(file)?.text, file).toContain('test_only_event');
  return handlers.filter((_, index) => {
    const source = program.getSourceFile(files[index] ?? '');
    const messages = source
      ? program
          .getSemanticDiagnostics(source)
          .map(({ messageText }) => ts.flattenDiagnosticMessageText(messageText, ' '))
      : [];
    for (const message of messages)
      expect(message).toMatch(/test_only_event.*not assignable to parameter of type 'never'/);
    return messages.length > 0;
  });
}

describe('a session event added to the union without its handling', () => {
  it('compiles as it is: every handler handles every event type', () => {
    expect(filesWithErrors(new Map())).toEqual([]);
  });

  it('fails the typecheck in every place that handles session events', () => {
    const changed = new Map([[sessionEvents, addedEvent('SessionEvent')]]);
    expect(filesWithErrors(changed)).toEqual([
      'workflows/session-state.ts',
      'workflows/transcript-view.ts',
      'workflows/temporal-ui-view.ts',
      'workflows/session-spans.ts',
      'src/session/feed-event-of.ts',
    ]);
  });

  it('fails the typecheck in every reader of the live feed when the feed shows it', () => {
    const changed = new Map([[feedEvents, addedEvent('FeedEventBody')]]);
    expect(filesWithErrors(changed)).toEqual([
      'src/client/ui-message-chunks.ts',
      'src/cli/render/render-feed-event.ts',
    ]);
  });
});
