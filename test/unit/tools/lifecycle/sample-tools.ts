import { z } from 'zod';
import { defineTool } from '../../../../src/tools/define-tool';
import { ToolRegistry } from '../../../../src/tools/tool-registry';

/** A read-only search tool with a semantic check on the directory. */
export const searchFiles = defineTool({
  name: 'search_files',
  description: 'Searches files for a pattern.',
  inputSchema: z.object({
    pattern: z.string().min(1),
    directory: z.string(),
    limit: z.number().int().min(1).default(20),
  }),
  concurrency: 'READ_ONLY',
  maxResultSizeChars: 500_000,
  aliases: ['grep_files'],
  validateInput: ({ directory }) =>
    directory.startsWith('/')
      ? { valid: true }
      : { valid: false, message: `The directory must be absolute, got "${directory}".` },
  execute: ({ pattern, directory, limit }) => ({ pattern, directory, limit, hits: [] as string[] }),
});

/** A write tool that declares nothing but its class: serial, destructive, asks permission. */
export const writeFile = defineTool({
  name: 'write_file',
  description: 'Writes a file.',
  inputSchema: z.object({ path: z.string(), content: z.string() }),
  concurrency: 'WRITE_EXCLUSIVE',
  execute: ({ path, content }) => `wrote ${content.length} characters to ${path}`,
});

/** A shell tool whose concurrency classifier throws on anything it cannot read. */
export const shell = defineTool({
  name: 'shell',
  description: 'Runs a shell command.',
  inputSchema: z.object({ command: z.string(), cwd: z.string().optional() }),
  isConcurrencySafe: ({ command }) => {
    if (command.includes('$(')) throw new Error('cannot analyse command substitution');
    return command.startsWith('ls ');
  },
  isReadOnly: ({ command }) => command.startsWith('ls '),
  isDestructive: ({ command }) => command.startsWith('rm '),
  checkPermissions: ({ command }) =>
    command.startsWith('rm ') ? { behavior: 'deny', message: 'rm is not allowed here.' } : { behavior: 'allow' },
  execute: ({ command }) => `ran ${command}`,
});

/** A tool that needs a human. */
export const askUser = defineTool({
  name: 'ask_user',
  description: 'Asks the user a question.',
  inputSchema: z.object({ question: z.string() }),
  concurrency: 'READ_ONLY',
  requiresUserInteraction: true,
  execute: ({ question }) => `answer to ${question}`,
});

/** A fresh registry holding the sample tools. */
export function sampleRegistry(): ToolRegistry {
  return new ToolRegistry([searchFiles, writeFile, shell, askUser]);
}

/** The session context of an interactive session. */
export const interactive = { sessionId: 'session-1', interactive: true } as const;
