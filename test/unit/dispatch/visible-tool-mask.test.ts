import { describe, expect, it } from 'vitest';
import { isVisibleInMask, visibleToolMask } from '../../../src/dispatch';

describe('the visible-tool mask of a model call', () => {
  const catalog = Array.from({ length: 11 }, (_, index) => `tool_${index}`);

  it('shows every tool when every tool is visible', () => {
    const mask = visibleToolMask(catalog, new Set(catalog));
    expect(mask).toBe('ff7');
    expect(catalog.filter((_, index) => isVisibleInMask(mask, index))).toEqual(catalog);
  });

  it('names exactly the visible tools, one hex digit per four tools', () => {
    const visible = new Set(['tool_0', 'tool_3', 'tool_4', 'tool_10']);
    const mask = visibleToolMask(catalog, visible);
    expect(mask).toHaveLength(3);
    expect(catalog.filter((_, index) => isVisibleInMask(mask, index))).toEqual([...visible]);
  });

  it('hides every tool when none is visible', () => {
    const mask = visibleToolMask(catalog, new Set());
    expect(catalog.filter((_, index) => isVisibleInMask(mask, index))).toEqual([]);
  });
});
