// A TypeScript consumer, typechecked against the types the package ships (never run).
import { z } from 'zod';
import {
  defineTool,
  loadRuleSet,
  ModelErrorCode,
  ToolDefinitionError,
  ToolErrorCode,
  type ToolrailClient,
  type CreateWorkerOptions,
  type SessionRuleStateView,
  type StartSessionOptions,
  type RunReply,
  FeedGapError,
  uiMessageChunker,
  toolrailPlugin,
  type ToolrailPluginOptions,
} from 'toolrail';
import { startChildSession, type ChildSessionResult, type StartChildSessionOptions } from 'toolrail/workflow';
import { createScriptedModel, startDevServer, textResponse, type DevServer } from 'toolrail/testing';
import {
  SessionStatus as WebSessionStatus,
  ToolrailClient as WebToolrailClient,
  type SessionHandle as WebSessionHandle,
  type SessionStatusView,
} from 'toolrail/client';

export const echo = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  inputSchema: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

export async function startSession(client: ToolrailClient, paths: string[]): Promise<SessionRuleStateView> {
  const loaded = await loadRuleSet({ paths });
  if (!loaded.ok) throw new Error(`${loaded.errors.length} rule errors`);
  const options: StartSessionOptions = {
    rules: loaded.rules,
    model: { provider: 'scripted', model: 'chat' },
    interactive: false,
  };
  const session = await client.startSession(options);
  return session.ruleState();
}

export const scripted: CreateWorkerOptions['scriptedModels'] = { chat: createScriptedModel([textResponse('Hi.')]) };
export const server: Promise<DevServer> = startDevServer({ ui: false });
export const codes: string[] = [ToolErrorCode.UNKNOWN_TOOL, ModelErrorCode.RATE_LIMITED];
export const isDefinitionError = (error: unknown): boolean => ToolDefinitionError.isInstance(error);

/** The shipped types of the live feed: an app awaits a reply and turns the feed into UI message chunks. */
export async function replyAndChunks(client: ToolrailClient, sessionId: string): Promise<[RunReply, number]> {
  const session = client.getSession(sessionId);
  const reply = await (await session.send('Hello?')).reply();
  const chunksOf = uiMessageChunker({ sessionId, readText: (ref) => session.readText(ref) });
  let chunks = 0;
  try {
    for await (const event of session.events({ from: 0 })) chunks += (await chunksOf(event)).length;
  } catch (error) {
    if (!FeedGapError.isInstance(error)) throw error;
  }
  return [reply, chunks];
}

// The client-only entry: the same classes and types, for an app that only starts and follows sessions.
export async function approveFirst(session: WebSessionHandle): Promise<SessionStatusView> {
  const { pendingApprovals } = await session.ruleState();
  const first = pendingApprovals[0];
  if (first) await session.approve(first.callId, 'looks right');
  return session.result();
}
export const sameClient: typeof WebToolrailClient = WebToolrailClient;
export const completed: string = WebSessionStatus.completed;

// The plugin for an existing worker, and sessions as steps of the app's own workflows.
export const pluginOptions: ToolrailPluginOptions = { tools: [echo], searchAttributes: 'warn' };
export const plugin = toolrailPlugin(pluginOptions);
export async function askInWorkflow(options: StartChildSessionOptions): Promise<ChildSessionResult> {
  const session = await startChildSession(options);
  await session.send('And then?');
  return session.result();
}
