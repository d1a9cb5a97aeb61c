import { previewOf, utf8ByteLength } from '../text';
import { zod } from '../rules';
import { problemsOfIssues, readableIssues } from './input-problems';
import { undecodableEncoding } from './payload-converter';
import type { SessionRuleStateView, TranscriptEntry } from './session-views';

/**
 * Query answers are paged so that none is ever put in Temporal's External Storage (offloaded past
 * 256 KiB: clients without it, like Python's or the `temporal` CLI, cannot read such an answer).
 * Sizes are UTF-8 bytes of the answer's JSON.
 */
export const pageBytes = { default: 131_072, min: 16_384, max: 196_608 } as const;

/** The argument of the `transcript` and `ruleState` queries (both optional). */
export interface PageRequest {
  /** Where to go on: the `next` of the previous page. */
  cursor?: string;
  /** Most bytes of this page's JSON (UTF-8): 16 384 to 196 608, default 131 072. */
  maxBytes?: number;
}

function buildPageRequestSchema() {
  const z = zod();
  return z.strictObject({
    cursor: z.string().optional(),
    maxBytes: z.number().int().min(pageBytes.min).max(pageBytes.max).optional(),
  });
}
let pageRequestSchema: ReturnType<typeof buildPageRequestSchema> | undefined;

/** The page argument's shape, built on first use (a workflow run that answers no paged query builds none). */
function pageRequestShape(): ReturnType<typeof buildPageRequestSchema> {
  return (pageRequestSchema ??= buildPageRequestSchema());
}

/**
 * A query's page argument, checked (`null` or none: the first page at the default size); throws a
 * `TypeError` that says what is wrong.
 */
export function readPageRequest(query: string, input: unknown): { cursor: string | undefined; maxBytes: number } {
  const encoding = undecodableEncoding(input);
  if (encoding !== undefined) throw new TypeError(`${query}: the argument could not be decoded (encoding ${encoding})`);
  const parsed = pageRequestShape().safeParse(input ?? {}, readableIssues);
  if (!parsed.success) {
    const problems = problemsOfIssues(parsed.error.issues, input).map(({ path, problem }) =>
      path ? `${path}: ${problem}` : problem,
    );
    throw new TypeError(`${query} takes nothing or { cursor?: string, maxBytes?: number }: ${problems.join('; ')}`);
  }
  return { cursor: parsed.data.cursor, maxBytes: parsed.data.maxBytes ?? pageBytes.default };
}

/** A transcript entry as a page holds it: `shortened` when it alone was too large for a page. */
export type PagedTranscriptEntry = TranscriptEntry & { shortened?: true };

/** The answer of the `transcript` query: some entries, oldest first, and where to go on. */
export interface TranscriptPage {
  entries: PagedTranscriptEntry[];
  /** The cursor after this page's last entry: ask with it for the entries that follow (now or later). */
  next: string;
  /** Whether entries after `next` are there now. */
  more: boolean;
  /**
   * Entries between the cursor and this page that this workflow run no longer keeps (they are in
   * earlier runs' histories).
   */
  skipped: number;
  /**
   * The position of the oldest entry this workflow run keeps (positions count every entry since
   * the session began): the entries before it are the earlier runs' (`SessionHandle.transcript`
   * reads them there). Absent from pages of workers before it.
   */
  start?: number;
}

/**
 * One page of a transcript whose first kept entry has the position `start` (positions count every
 * entry since the session began). The cursor is a position; without one the page starts at the
 * oldest kept entry.
 */
export function transcriptPage(
  entries: readonly TranscriptEntry[],
  start: number,
  cursor: string | undefined,
  maxBytes: number,
): TranscriptPage {
  const from = cursor === undefined ? start : readPosition(cursor);
  const first = Math.max(from, start);
  const skipped = first - from;
  const end = start + entries.length;
  const page: PagedTranscriptEntry[] = [];
  // The page's own fields, with room for the largest cursor and count.
  let bytes = utf8ByteLength(JSON.stringify({ entries: [], next: String(end), more: false, skipped, start }));
  let position = first;
  for (; position < end; position += 1) {
    const entry = entries[position - start] as TranscriptEntry;
    const room = maxBytes - bytes - (page.length > 0 ? 1 : 0);
    const fitted = page.length === 0 ? fitItem(entry, room) : entry;
    const size = utf8ByteLength(JSON.stringify(fitted));
    if (size > room) break;
    page.push(fitted as PagedTranscriptEntry);
    bytes += size + (page.length > 1 ? 1 : 0);
  }
  return { entries: page, next: String(position), more: position < end, skipped, start };
}

function readPosition(cursor: string): number {
  if (!/^\d{1,15}$/.test(cursor))
    throw new TypeError(`transcript: cursor ${JSON.stringify(cursor)} is not one this query gave`);
  return Number(cursor);
}

/** The answer of the `ruleState` query, one page of it. */
export type RuleStatePage = SessionRuleStateView & {
  /** The cursor of the next page (its lists go on where this one's stop), or `null` when this page ends the answer. */
  next: string | null;
};

/** The lists a rule-state answer may spread over pages, in page order. */
const ruleStateLists = [
  ['rules', 'hidden'],
  ['rules', 'visible'],
  ['rules', 'forbidden'],
  ['rules', 'counts'],
  ['rules', 'sequences'],
  ['rules', 'steps'],
  ['rules', 'completedInRun'],
  ['rules', 'completedInSession'],
  ['pendingApprovals'],
  ['runningCalls'],
  ['unavailableTools'],
  // Last, so the cursors of the lists before it mean what they meant before it was paged.
  ['rules', 'shadowHidden'],
] as const;

/** Lists a view may leave out (absent when empty): a page leaves them out too. */
const optionalLists: ReadonlySet<string> = new Set(['shadowHidden']);

type ListPath = (typeof ruleStateLists)[number];

/**
 * One page of a rule-state answer: every field, and the items of its lists from the cursor on
 * while the page stays within `maxBytes`; the lists before the cursor's are empty on this page.
 * A client concatenates each list over the pages (see `mergeRuleStatePages`). `snapshot` names the
 * state the answer describes: a cursor of another snapshot is refused, so pages never mix states.
 */
export function ruleStatePage(
  view: SessionRuleStateView,
  snapshot: string,
  cursor: string | undefined,
  maxBytes: number,
): RuleStatePage {
  let [list, item] = [0, 0];
  if (cursor !== undefined) {
    const match = /^(.+):(\d+):(\d+)$/.exec(cursor);
    if (match?.[1] !== snapshot)
      throw new TypeError(
        `ruleState: the state changed since cursor ${JSON.stringify(cursor)} was given: start again without a cursor`,
      );
    [list, item] = [Number(match[2]), Number(match[3])];
  }
  const page = withLists(view, () => []);
  const pageLists = ruleStateLists.map((path) => listAt(page, path));
  let bytes = utf8ByteLength(JSON.stringify({ ...page, next: `${snapshot}:${ruleStateLists.length}:${1e9}` }));
  let added = 0;
  for (; list < ruleStateLists.length; list += 1, item = 0) {
    const items = listAt(view, ruleStateLists[list] as ListPath);
    const target = pageLists[list] as unknown[];
    for (; item < items.length; item += 1) {
      const room = maxBytes - bytes - (target.length > 0 ? 1 : 0);
      const fitted = added === 0 ? fitItem(items[item], room) : items[item];
      const size = utf8ByteLength(JSON.stringify(fitted));
      if (size > room) return { ...page, next: `${snapshot}:${list}:${item}` };
      target.push(fitted);
      bytes += size + (target.length > 1 ? 1 : 0);
      added += 1;
    }
  }
  return { ...page, next: null };
}

/** The whole rule state from its pages, in order: each list concatenated, the other fields from the first page. */
export function mergeRuleStatePages(pages: readonly RuleStatePage[]): SessionRuleStateView {
  const [first] = pages;
  if (first === undefined) throw new Error('no rule-state pages to merge');
  const { next: _next, ...view } = first;
  return withLists(view, (path) => pages.flatMap((page) => listAt(page, path)));
}

function listAt(view: SessionRuleStateView, path: ListPath): unknown[] {
  const holder =
    path.length === 2
      ? (view.rules as unknown as Record<string, unknown>)
      : (view as unknown as Record<string, unknown>);
  return (holder[path[path.length - 1] as string] as unknown[] | undefined) ?? [];
}

/** A copy of `view` whose lists are `list(path)`. */
function withLists(view: SessionRuleStateView, list: (path: ListPath) => unknown[]): SessionRuleStateView {
  const rules: Record<string, unknown> = { ...view.rules };
  const top: Record<string, unknown> = { ...view };
  for (const path of ruleStateLists) {
    const [first, second] = path;
    if (second === undefined) top[first] = list(path);
    else if (!optionalLists.has(second) || rules[second] !== undefined) rules[second] = list(path);
  }
  return { ...(top as unknown as SessionRuleStateView), rules: rules as unknown as SessionRuleStateView['rules'] };
}

/**
 * An item that alone is larger than `room` bytes, made to fit: long strings shortened, long lists
 * cut, marked `shortened: true` (objects); if even that is too large, a note in its place.
 */
function fitItem(value: unknown, room: number): unknown {
  if (utf8ByteLength(JSON.stringify(value)) <= room) return value;
  const shrunk = shrink(value);
  const marked = isPlainObject(shrunk) ? { ...shrunk, shortened: true } : shrunk;
  if (utf8ByteLength(JSON.stringify(marked)) <= room) return marked;
  const bytes = utf8ByteLength(JSON.stringify(value));
  const kind = isPlainObject(value) && typeof value['kind'] === 'string' ? { kind: value['kind'] } : {};
  return { ...kind, shortened: true, note: `[toolrail] ${bytes} bytes, too large for one page: left out` };
}

function shrink(value: unknown): unknown {
  if (typeof value === 'string')
    return value.length > 1_000
      ? `${previewOf(value, 1_000)}… [toolrail: shortened from ${value.length} characters]`
      : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, 100).map(shrink);
    return value.length > 100 ? [...kept, `[toolrail: ${value.length - 100} more left out]`] : kept;
  }
  if (isPlainObject(value))
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, shrink(field)]));
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
