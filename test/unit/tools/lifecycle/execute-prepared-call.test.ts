import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PreparedCall } from '../../../../src/dispatch/prepared-call';
import type { ToolOutcome } from '../../../../src/dispatch/tool-outcome';
import { defineTool } from '../../../../src/tools/define-tool';
import { ToolAbortError } from '../../../../src/tools/errors/tool-abort-error';
import { ToolExecutionError } from '../../../../src/tools/errors/tool-execution-error';
import { executePreparedCall } from '../../../../src/tools/lifecycle/execute-prepared-call';
import type { ExecutePreparedCallOptions } from '../../../../src/tools/lifecycle/execute-prepared-call';
import { prepareToolCall } from '../../../../src/tools/lifecycle/prepare-tool-call';
import type { ToolHooks } from '../../../../src/tools/lifecycle/tool-hooks';
import type { AnyTool } from '../../../../src/tools/tool';
import type { ToolExecutionContext } from '../../../../src/tools/tool-context';
import type { ToolRegistry } from '../../../../src/tools/tool-registry';
import { interactive, sampleRegistry } from './sample-tools';

async function prepareIn(registry: ToolRegistry, name: string, args: unknown): Promise<PreparedCall> {
  const prepared = await prepareToolCall({
    registry,
    call: { id: `call-${name}`, name, args },
    context: interactive,
  });
  if (prepared.type !== 'prepared-call') throw new Error(`could not prepare: ${prepared.message}`);
  return prepared;
}

async function run(
  name: string,
  args: unknown,
  options: Partial<Omit<ExecutePreparedCallOptions, 'prepared'>> & { tools?: readonly AnyTool[] } = {},
): Promise<ToolOutcome> {
  const registry = options.registry ?? sampleRegistry();
  for (const tool of options.tools ?? []) registry.register(tool);
  const prepared = await prepareIn(registry, name, args);
  return executePreparedCall({
    registry,
    prepared,
    context: interactive,
    approved: true,
    ...options,
  });
}

const slowTool = (onSignal?: (signal: AbortSignal) => void) =>
  defineTool({
    name: 'slow',
    description: 'Takes its time and ignores cancellation.',
    inputSchema: z.object({}),
    concurrency: 'READ_ONLY',
    timeoutMs: 5_000,
    execute: (_input, context) => {
      onSignal?.(context.signal);
      return new Promise<string>(() => undefined);
    },
  });

describe('executePreparedCall', () => {
  it('runs the tool with the parsed input and returns its result', async () => {
    const outcome = await run('search_files', { pattern: 'TODO', directory: '/src' });
    expect(outcome).toEqual({
      type: 'tool-result',
      callId: 'call-search_files',
      toolName: 'search_files',
      output: { pattern: 'TODO', directory: '/src', limit: 20, hits: [] },
    });
  });

  it('gives the tool its signal, call ids, idempotency key and heartbeat', async () => {
    let seen: ToolExecutionContext | undefined;
    const beats: unknown[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records its context.',
      inputSchema: z.object({}),
      concurrency: 'READ_ONLY',
      execute: (_input, context) => {
        seen = context;
        context.heartbeat({ step: 1 });
        return 'ok';
      },
    });
    await run(
      'probe',
      {},
      { tools: [probe], context: { ...interactive, heartbeat: (details) => beats.push(details) } },
    );
    expect(seen).toMatchObject({
      sessionId: 'session-1',
      callId: 'call-probe',
      interactive: true,
      idempotencyKey: 'session-1/call-probe',
    });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
    expect(beats).toEqual([{ step: 1 }]);
  });

  it('refuses a denied call and an unapproved ask', async () => {
    const denied = await run('shell', { command: 'rm -rf /' });
    expect(denied).toMatchObject({ type: 'tool-error', code: 'PERMISSION_DENIED', message: 'rm is not allowed here.' });
    const unapproved = await run('write_file', { path: 'a', content: 'b' }, { approved: false });
    expect(unapproved).toMatchObject({ type: 'tool-error', code: 'APPROVAL_REQUIRED' });
    expect(await run('write_file', { path: 'a', content: 'b' })).toMatchObject({ type: 'tool-result' });
  });

  describe('pre-tool hooks', () => {
    it('blocks the call when a hook blocks, without running the tool', async () => {
      let ran = false;
      const tool = defineTool({
        name: 'spy',
        description: 'Spy.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => (ran = true),
      });
      const hooks: ToolHooks = { preToolUse: [() => ({ action: 'block', message: 'Not during a freeze.' })] };
      expect(await run('spy', {}, { tools: [tool], hooks })).toMatchObject({
        code: 'HOOK_BLOCKED',
        message: 'Not during a freeze.',
      });
      expect(ran).toBe(false);
    });

    it('blocks the call when a hook throws', async () => {
      const hooks: ToolHooks = {
        preToolUse: [
          () => {
            throw new Error('audit log unreachable');
          },
        ],
      };
      const outcome = await run('search_files', { pattern: 'a', directory: '/' }, { hooks });
      expect(outcome).toMatchObject({
        code: 'HOOK_BLOCKED',
        message: expect.stringContaining('audit log unreachable') as string,
      });
    });

    it('runs the tool with a valid rewrite', async () => {
      const hooks: ToolHooks = {
        preToolUse: [({ args }) => ({ action: 'rewrite', args: { ...args, directory: '/safe' } }), () => undefined],
      };
      const outcome = await run('search_files', { pattern: 'a', directory: '/' }, { hooks });
      expect(outcome).toMatchObject({ type: 'tool-result', output: { directory: '/safe' } });
    });

    it('catches a rewrite into input that breaks the schema', async () => {
      const hooks: ToolHooks = { preToolUse: [() => ({ action: 'rewrite', args: { pattern: '', directory: 7 } })] };
      const outcome = await run('search_files', { pattern: 'a', directory: '/' }, { hooks });
      expect(outcome).toMatchObject({ type: 'tool-error', code: 'HOOK_INPUT_INVALID' });
      expect(outcome.type === 'tool-error' ? outcome.issues?.map((issue) => issue.path.join('.')) : []).toEqual([
        'pattern',
        'directory',
      ]);
    });

    it('catches a rewrite into input that fails validateInput', async () => {
      const hooks: ToolHooks = {
        preToolUse: [() => ({ action: 'rewrite', args: { pattern: 'a', directory: 'relative' } })],
      };
      const outcome = await run('search_files', { pattern: 'a', directory: '/' }, { hooks });
      expect(outcome).toMatchObject({
        code: 'HOOK_INPUT_INVALID',
        message: expect.stringContaining('must be absolute') as string,
      });
    });

    it('catches a rewrite into something that is not an object', async () => {
      const hooks: ToolHooks = {
        preToolUse: [
          () => ({ action: 'rewrite', args: 'not json' }),
          () => ({ action: 'block', message: 'unreached' }),
        ],
      };
      expect(await run('search_files', { pattern: 'a', directory: '/' }, { hooks })).toMatchObject({
        code: 'HOOK_INPUT_INVALID',
      });
    });

    it('refuses a rewrite that makes a concurrency-safe call unsafe', async () => {
      const hooks: ToolHooks = { preToolUse: [() => ({ action: 'rewrite', args: { command: 'touch x' } })] };
      const outcome = await run('shell', { command: 'ls -la' }, { hooks });
      expect(outcome).toMatchObject({
        code: 'HOOK_INPUT_INVALID',
        message: expect.stringContaining('no longer concurrency-safe') as string,
      });
    });

    it('refuses a rewrite that makes a non-destructive call destructive', async () => {
      const hooks: ToolHooks = { preToolUse: [() => ({ action: 'rewrite', args: { command: 'rm -rf /' } })] };
      const outcome = await run('shell', { command: 'touch x' }, { hooks });
      expect(outcome).toMatchObject({
        code: 'HOOK_INPUT_INVALID',
        message: expect.stringContaining('non-destructive') as string,
      });
    });

    it('checks the permission of rewritten input again', async () => {
      const deploy = defineTool({
        name: 'deploy',
        description: 'Deploys.',
        inputSchema: z.object({ target: z.enum(['staging', 'prod', 'canary']) }),
        checkPermissions: ({ target }) => {
          if (target === 'prod') return { behavior: 'deny', message: 'No prod deploys from agents.' };
          return target === 'canary' ? { behavior: 'ask' } : { behavior: 'allow' };
        },
        execute: ({ target }) => target,
      });
      const toProd: ToolHooks = { preToolUse: [() => ({ action: 'rewrite', args: { target: 'prod' } })] };
      const toCanary: ToolHooks = { preToolUse: [() => ({ action: 'rewrite', args: { target: 'canary' } })] };
      expect(await run('deploy', { target: 'staging' }, { tools: [deploy], hooks: toProd })).toMatchObject({
        code: 'PERMISSION_DENIED',
        message: 'No prod deploys from agents.',
      });
      expect(await run('deploy', { target: 'staging' }, { tools: [deploy], hooks: toCanary })).toMatchObject({
        code: 'HOOK_INPUT_INVALID',
        message: expect.stringContaining('needs approval') as string,
      });
    });
  });

  describe('execution failures', () => {
    it('reports a throwing tool as a retryable EXECUTION_ERROR when its policy allows retries', async () => {
      const flaky = defineTool({
        name: 'flaky',
        description: 'Fails.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => {
          throw new Error('connection reset');
        },
      });
      expect(await run('flaky', {}, { tools: [flaky] })).toMatchObject({
        code: 'EXECUTION_ERROR',
        message: 'flaky failed: connection reset',
        retryable: true,
      });
    });

    it('never marks a destructive call retryable', async () => {
      const drop = defineTool({
        name: 'drop_table',
        description: 'Drops.',
        inputSchema: z.object({}),
        requiresPermission: false,
        retry: { maximumAttempts: 5 },
        execute: () => {
          throw new Error('lock timeout');
        },
      });
      expect(await run('drop_table', {}, { tools: [drop] })).toMatchObject({
        code: 'EXECUTION_ERROR',
        retryable: false,
      });
    });

    it('passes a deliberate ToolExecutionError message through, not retryable', async () => {
      const picky = defineTool({
        name: 'picky',
        description: 'Refuses.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => {
          throw new ToolExecutionError({ message: 'File not found: a.txt. List the directory first.' });
        },
      });
      expect(await run('picky', {}, { tools: [picky] })).toMatchObject({
        code: 'EXECUTION_ERROR',
        message: 'File not found: a.txt. List the directory first.',
        retryable: false,
      });
    });

    it('reports a result that is not JSON', async () => {
      const bigint = defineTool({
        name: 'big',
        description: 'Big.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => 10n,
      });
      expect(await run('big', {}, { tools: [bigint] })).toMatchObject({ code: 'EXECUTION_ERROR' });
    });
  });

  describe('aborts', () => {
    it('reports a sibling abort with its own code even when the tool ignores its signal', async () => {
      const controller = new AbortController();
      // The abort arrives while the tool runs: from inside it, so no timer decides the order.
      const tool = slowTool(() => {
        controller.abort(new ToolAbortError({ code: 'SIBLING_ABORTED', message: 'read_file failed' }));
      });
      const outcome = await run('slow', {}, { tools: [tool], context: { ...interactive, signal: controller.signal } });
      expect(outcome).toMatchObject({ code: 'SIBLING_ABORTED', message: 'read_file failed', retryable: false });
    });

    it('reports any other abort as INTERRUPTED and passes the abort to the tool', async () => {
      const controller = new AbortController();
      let toolSignal: AbortSignal | undefined;
      const tool = slowTool((signal) => {
        toolSignal = signal;
        controller.abort();
      });
      const outcome = await run('slow', {}, { tools: [tool], context: { ...interactive, signal: controller.signal } });
      expect(outcome).toMatchObject({ code: 'INTERRUPTED' });
      expect(toolSignal?.aborted).toBe(true);
    });

    it('does not start a call whose signal is already aborted', async () => {
      let ran = false;
      const tool = defineTool({
        name: 'spy',
        description: 'Spy.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        execute: () => (ran = true),
      });
      const outcome = await run('spy', {}, { tools: [tool], context: { ...interactive, signal: AbortSignal.abort() } });
      expect(outcome).toMatchObject({ code: 'INTERRUPTED' });
      expect(ran).toBe(false);
    });

    it('times a call out after its timeoutMs', async () => {
      const tool = defineTool({
        name: 'hang',
        description: 'Hangs.',
        inputSchema: z.object({}),
        concurrency: 'READ_ONLY',
        timeoutMs: 20,
        execute: () => new Promise<string>(() => undefined),
      });
      expect(await run('hang', {}, { tools: [tool] })).toMatchObject({
        code: 'TIMEOUT',
        message: 'hang did not finish within 20 ms.',
        retryable: true,
      });
    });
  });

  describe('long results', () => {
    it('returns the whole output, whatever maxResultSizeChars says: the tool activity offloads it to the content store', async () => {
      const dump = defineTool({
        name: 'dump',
        description: 'Dumps.',
        inputSchema: z.object({ size: z.number().int() }),
        concurrency: 'READ_ONLY',
        maxResultSizeChars: 1_000,
        execute: ({ size }) => 'x'.repeat(size),
      });
      expect(await run('dump', { size: 5_000 }, { tools: [dump] })).toEqual({
        type: 'tool-result',
        callId: 'call-dump',
        toolName: 'dump',
        output: 'x'.repeat(5_000),
      });
    });
  });

  describe('post-tool hooks', () => {
    it('lets post-tool hooks observe the outcome without changing it', async () => {
      const seen: ToolOutcome[] = [];
      const errors: unknown[] = [];
      const hooks: ToolHooks = {
        postToolUse: [
          ({ outcome }) => {
            seen.push(outcome);
          },
          () => {
            throw new Error('metrics down');
          },
        ],
        onPostHookError: (error) => errors.push(error),
      };
      const outcome = await run('search_files', { pattern: 'a', directory: '/' }, { hooks });
      expect(outcome.type).toBe('tool-result');
      expect(seen).toEqual([outcome]);
      expect(errors).toHaveLength(1);
    });
  });
});
