import type { ConversationMessage } from '../models';
import type { MessageRef } from '../session';
import { utf8ByteLength } from '../text';

/** What a request built within a budget shows of the conversation. */
export interface ShownConversation {
  /** Messages in the request (notes included). */
  messages: number;
  /** Messages shown whole. */
  full: number;
  /** Tool results shown as their preview only. */
  previewed: number;
  /** Oldest messages left out entirely. */
  omitted: number;
  /** UTF-8 bytes of the request's messages (as stored JSON, for those shown whole). */
  bytes: number;
}

/** An assistant message with the results of its calls, or a user message: what is kept or cut together. */
interface Unit {
  refs: MessageRef[];
  fullBytes: number;
}

/** Bytes a previewed tool result's note adds to its preview. */
const previewNoteBytes = 160;

/**
 * Builds the request's messages from the log within `budgetBytes`, newest first: messages are shown
 * whole while they fit; then tool results are shown as their preview (as the result offload does);
 * then the oldest messages are left out, with one note saying how many. An assistant message and its
 * tool results are kept or cut together (providers refuse orphaned results), and the session's first
 * user message is kept whole when it fits in the budget at all. Only messages shown whole are read
 * from the store, so the cost is bounded by the budget, not by the session's length.
 */
export async function buildModelMessages(
  entries: readonly MessageRef[],
  load: (refs: readonly MessageRef[]) => Promise<ConversationMessage[]>,
  { budgetBytes }: { budgetBytes: number },
): Promise<{ messages: ConversationMessage[]; shown: ShownConversation }> {
  const units = toUnits(entries);
  const first = units[0]?.refs[0]?.role === 'user' ? units[0] : undefined;
  let remaining = budgetBytes - (first && first.fullBytes <= budgetBytes ? first.fullBytes : 0);
  const rest = units.slice(first ? 1 : 0);
  const chosen: { unit: Unit; whole: boolean }[] = [];
  let omittedUnits = 0;
  if (rest.reduce((sum, unit) => sum + unit.fullBytes, 0) <= remaining) {
    // The usual case: the whole conversation fits, and no preview is weighed.
    for (const unit of rest) chosen.push({ unit, whole: true });
  } else {
    // Every message is shown at least as its preview, newest first, as far as the budget goes...
    const previewed = rest.map(previewedBytesOf);
    let kept = 0;
    for (let index = rest.length - 1; index >= 0; index--) {
      if ((previewed[index] as number) > remaining) break;
      remaining -= previewed[index] as number;
      kept += 1;
    }
    omittedUnits = rest.length - kept;
    // ...then the newest are shown whole while what is left of the budget allows.
    for (let index = rest.length - 1; index >= omittedUnits; index--) {
      const unit = rest[index] as Unit;
      const extra = unit.fullBytes - (previewed[index] as number);
      const whole = extra <= remaining;
      if (whole) remaining -= extra;
      chosen.push({ unit, whole });
    }
    chosen.reverse();
  }
  if (first) chosen.unshift({ unit: first, whole: first.fullBytes <= budgetBytes });

  const omitted = units
    .slice(first ? 1 : 0, (first ? 1 : 0) + omittedUnits)
    .reduce((sum, unit) => sum + unit.refs.length, 0);
  const toLoad = chosen.flatMap(({ unit, whole }) => unit.refs.filter((ref) => whole || ref.role === 'assistant'));
  const loaded = new Map(toLoad.map((ref, index) => [ref.key, index] as const));
  const messages = await load(toLoad);

  const out: ConversationMessage[] = [];
  let previewed = 0;
  let bytes = 0;
  chosen.forEach(({ unit, whole }, position) => {
    if (position === (first ? 1 : 0) && omitted > 0) {
      const text = `[toolrail] ${omitted} earlier messages of this session were left out to fit the model's context budget.`;
      out.push({ role: 'user', text });
      bytes += utf8ByteLength(text);
    }
    const head = unit.refs[0];
    const headIndex = head === undefined ? undefined : loaded.get(head.key);
    const assistant = headIndex === undefined ? undefined : messages[headIndex];
    for (const [position, ref] of unit.refs.entries()) {
      const index = loaded.get(ref.key);
      const message = index === undefined ? undefined : messages[index];
      if (message !== undefined && (whole || ref.role === 'assistant')) {
        out.push(message);
        bytes += ref.bytes;
      } else {
        previewed += 1;
        const text = `[toolrail] This ${ref.role === 'tool' ? 'result' : 'message'} (${ref.bytes} bytes) was shortened to fit the model's context budget. Its start: ${ref.preview}`;
        const call = assistant?.role === 'assistant' ? assistant.toolCalls[position - 1] : undefined;
        out.push(
          ref.role === 'tool'
            ? {
                role: 'tool',
                callId: call?.id ?? ref.key,
                toolName: call?.name ?? 'tool',
                content: text,
                isError: false,
              }
            : { role: 'user', text },
        );
        bytes += utf8ByteLength(text);
      }
    }
  });
  if (chosen.length === (first ? 1 : 0) && omitted > 0) {
    out.push({
      role: 'user',
      text: `[toolrail] ${omitted} earlier messages of this session were left out to fit the model's context budget.`,
    });
  }
  return { messages: out, shown: { messages: out.length, full: out.length - previewed, previewed, omitted, bytes } };
}

function toUnits(entries: readonly MessageRef[]): Unit[] {
  const units: Unit[] = [];
  for (const ref of entries) {
    const last = units.at(-1);
    if (ref.role === 'tool' && last !== undefined && last.refs[0]?.role === 'assistant') {
      last.refs.push(ref);
      last.fullBytes += ref.bytes;
    } else {
      units.push({ refs: [ref], fullBytes: ref.bytes });
    }
  }
  return units;
}

/** A unit's bytes with every tool result replaced by its preview (and the note that says so). */
function previewedBytesOf(unit: Unit): number {
  return unit.refs.reduce(
    (sum, ref) => sum + (ref.role === 'tool' ? utf8ByteLength(ref.preview) + previewNoteBytes : ref.bytes),
    0,
  );
}
