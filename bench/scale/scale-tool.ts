import { z } from 'zod';
import { defineTool } from '../../src/tools/define-tool';
import type { AnyTool } from '../../src/tools/tool';
import { createScriptedModel, textResponse, toolCallResponse } from '../../src/models';
import type { ScriptedModel } from '../../src/models';

/** UTF-8 bytes of every tool result in the scale benchmark. */
export const scaleResultBytes = 1_000;

/** The 1 KB result of page `page`. */
export function scaleResultText(page: number): string {
  const unit = `page ${page}: lorem ipsum dolor sit amet; `;
  return unit.repeat(Math.ceil(scaleResultBytes / unit.length)).slice(0, scaleResultBytes);
}

/** The one tool of the toolrail sessions: read-only, returns 1 KB. */
export function createScaleTool(): AnyTool {
  return defineTool({
    name: 'read_page',
    description: 'Reads one page of the document.',
    inputSchema: z.object({ page: z.number().int() }),
    concurrency: 'READ_ONLY',
    execute: ({ page }) => scaleResultText(page),
  });
}

/** The scripted model of a `turns`-turn session: one `read_page` call per turn, then an answer. */
export function createScaleModel(turns: number): ScriptedModel {
  return createScriptedModel(
    [...Array.from({ length: turns }, (_, page) => toolCallResponse('read_page', { page })), textResponse('Done.')],
    { recordRequests: false },
  );
}

/** The scripted model's name for sessions of `turns` turns. */
export function scaleModelName(turns: number): string {
  return `scale-${turns}`;
}
