import type { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

/** The CLI's name of each search attribute type, by the number the server's `IndexedValueType` gives it. */
const typeNames: Record<SearchAttributeType, { cli: string; indexed: number }> = {
  TEXT: { cli: 'Text', indexed: 1 },
  KEYWORD: { cli: 'Keyword', indexed: 2 },
  INT: { cli: 'Int', indexed: 3 },
  DOUBLE: { cli: 'Double', indexed: 4 },
  BOOL: { cli: 'Bool', indexed: 5 },
  DATETIME: { cli: 'Datetime', indexed: 6 },
  KEYWORD_LIST: { cli: 'KeywordList', indexed: 7 },
};

/** A search attribute the namespace lacks, or has with another type than toolrail's. */
export interface MissingSearchAttribute {
  name: string;
  /** The type toolrail sets (the CLI's name, e.g. `Keyword`). */
  type: string;
  /** The type the namespace has it with (the CLI's name), when it has it. */
  registeredAs?: string;
}

/**
 * Of `wanted`, the search attributes `registered` (name → the server's `IndexedValueType` number,
 * as `ListSearchAttributes` answers) lacks or has with another type.
 */
export function missingSearchAttributes(
  wanted: readonly SearchAttributeKey<SearchAttributeType>[],
  registered: Readonly<Record<string, number>>,
): MissingSearchAttribute[] {
  return wanted.flatMap(({ name, type }): MissingSearchAttribute[] => {
    const want = typeNames[type];
    if (!Object.hasOwn(registered, name)) return [{ name, type: want.cli }];
    const has = registered[name];
    if (has === want.indexed) return [];
    const hasName = Object.values(typeNames).find((candidate) => candidate.indexed === has)?.cli ?? String(has);
    return [{ name, type: want.cli, registeredAs: hasName }];
  });
}

/**
 * What to tell a user whose namespace lacks toolrail's search attributes: which, and the command
 * that registers them (an attribute registered with another type must be removed first).
 */
export function describeMissingSearchAttributes(namespace: string, missing: readonly MissingSearchAttribute[]): string {
  const named = missing
    .map(({ name, type, registeredAs }) =>
      registeredAs ? `${name} (${type}; registered as ${registeredAs})` : `${name} (${type})`,
    )
    .join(', ');
  const absent = missing.filter((attribute) => attribute.registeredAs === undefined);
  const retyped = missing.filter((attribute) => attribute.registeredAs !== undefined);
  return [
    `namespace "${namespace}" lacks toolrail's search attributes ${named}: every session's workflow task would fail (BadSearchAttributes). Register them, then start the worker again:`,
    ...retyped.map(({ name }) => `  temporal operator search-attribute remove --namespace ${namespace} --name ${name}`),
    ...(missing.length > 0
      ? [
          `  temporal operator search-attribute create --namespace ${namespace} ${[...absent, ...retyped].map(({ name, type }) => `--name ${name} --type ${type}`).join(' ')}`,
        ]
      : []),
    '(on Temporal Cloud: in the Cloud UI, or with tcld namespace search-attributes add)',
  ].join('\n');
}
