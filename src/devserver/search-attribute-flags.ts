import type { SearchAttributeType } from '@temporalio/common';
import type { SearchAttributeKey } from '@temporalio/common/lib/search-attributes';

const cliTypeNames: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** `--search-attribute Name=Type` arguments for `temporal server start-dev`. */
export function searchAttributeFlags(keys: readonly SearchAttributeKey<SearchAttributeType>[]): string[] {
  return keys.flatMap((key) => ['--search-attribute', `${key.name}=${cliTypeNames[key.type]}`]);
}
