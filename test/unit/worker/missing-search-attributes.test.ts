import { describe, expect, it } from 'vitest';
import { toolrailSearchAttributes } from '../../../src/session';
import {
  describeMissingSearchAttributes,
  missingSearchAttributes,
} from '../../../src/worker/missing-search-attributes';

/** Every toolrail attribute registered with its type (Keyword 2, Int 3), as `ListSearchAttributes` answers. */
const everyOne = {
  ToolrailStatus: 2,
  ToolrailLastTool: 2,
  ToolrailBlockedCalls: 3,
  ToolrailPendingApprovals: 3,
  ToolrailTotalTokens: 3,
};

describe('missingSearchAttributes', () => {
  it('finds none when the namespace has every attribute with its type', () => {
    expect(missingSearchAttributes(toolrailSearchAttributes, { ...everyOne, CustomerId: 2 })).toEqual([]);
  });

  it('names an attribute the namespace lacks, and one it has with another type', () => {
    const { ToolrailTotalTokens: _, ...earlier } = everyOne;
    expect(missingSearchAttributes(toolrailSearchAttributes, { ...earlier, ToolrailStatus: 1 })).toEqual([
      { name: 'ToolrailStatus', type: 'Keyword', registeredAs: 'Text' },
      { name: 'ToolrailTotalTokens', type: 'Int' },
    ]);
  });

  it('does not take an inherited property for a registered attribute', () => {
    expect(missingSearchAttributes(toolrailSearchAttributes, {}).map(({ name }) => name)).toEqual(
      toolrailSearchAttributes.map(({ name }) => name),
    );
  });
});

describe('describeMissingSearchAttributes', () => {
  it('says what fails and gives the commands that register them, one line each', () => {
    expect(
      describeMissingSearchAttributes('orders', [
        { name: 'ToolrailStatus', type: 'Keyword', registeredAs: 'Text' },
        { name: 'ToolrailTotalTokens', type: 'Int' },
      ]).split('\n'),
    ).toEqual([
      `namespace "orders" lacks toolrail's search attributes ToolrailStatus (Keyword; registered as Text), ToolrailTotalTokens (Int): every session's workflow task would fail (BadSearchAttributes). Register them, then start the worker again:`,
      '  temporal operator search-attribute remove --namespace orders --name ToolrailStatus',
      '  temporal operator search-attribute create --namespace orders --name ToolrailTotalTokens --type Int --name ToolrailStatus --type Keyword',
      '(on Temporal Cloud: in the Cloud UI, or with tcld namespace search-attributes add)',
    ]);
  });
});
