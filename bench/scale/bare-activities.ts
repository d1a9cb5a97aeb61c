import { Context } from '@temporalio/activity';
import type { ContentStore } from '../../src/store/content-store';
import { sha256Hex } from '../../src/store/hash-content';
import { scaleResultText } from './scale-tool';

/** The call a bare "model" proposes. */
export interface BareCall {
  id: string;
  name: string;
  args: { page: number };
}

/** Activities of the bare workflow. */
export interface BareActivities {
  /** Stands in for a model call: one call per turn, none once `turns` calls were made. */
  model(input: { turn: number; turns: number }): Promise<BareCall | null>;
  /** The tool: returns its result (1 KB) whole. */
  tool(call: BareCall): Promise<string>;
  /** The same tool, its result kept out of history: stored, and returned by reference. */
  toolByReference(call: BareCall): Promise<{ key: string; bytes: number }>;
}

/** Builds the bare activities; `store` holds the results returned by reference. */
export function createBareActivities(store: ContentStore): BareActivities {
  return {
    model: ({ turn, turns }) =>
      Promise.resolve(turn < turns ? { id: `call_${turn}_0`, name: 'read_page', args: { page: turn } } : null),
    tool: ({ args }) => Promise.resolve(scaleResultText(args.page)),
    async toolByReference({ args }) {
      const bytes = Buffer.from(scaleResultText(args.page), 'utf8');
      const key = sha256Hex(bytes);
      await store.put(Context.current().info.workflowExecution?.workflowId ?? 'bare', key, bytes);
      return { key, bytes: bytes.length };
    },
  };
}
