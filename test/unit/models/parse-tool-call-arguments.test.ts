import { describe, expect, it } from 'vitest';
import { parseToolCallArguments } from '../../../src/models';

describe('parseToolCallArguments', () => {
  it('parses a JSON object', () => {
    expect(parseToolCallArguments('{"orderId":"A-1","items":[1,2]}')).toEqual({ orderId: 'A-1', items: [1, 2] });
  });

  it('reads an empty or blank string as {}', () => {
    expect(parseToolCallArguments('')).toEqual({});
    expect(parseToolCallArguments('  \n')).toEqual({});
  });

  it('keeps invalid JSON as the raw string', () => {
    expect(parseToolCallArguments('{"title": "Printer')).toBe('{"title": "Printer');
  });

  it('keeps JSON that is not an object as the raw string', () => {
    expect(parseToolCallArguments('[1,2]')).toBe('[1,2]');
    expect(parseToolCallArguments('null')).toBe('null');
    expect(parseToolCallArguments('"text"')).toBe('"text"');
  });

  it('keeps a __proto__ key as plain data without touching the prototype', () => {
    const args = parseToolCallArguments('{"__proto__":{"polluted":true}}');
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(args as object, '__proto__')).toBe(true);
  });
});

describe('parseToolCallArguments with what servers send besides JSON text', () => {
  it('keeps arguments given as an object (llama.cpp, TGI) as that object', () => {
    expect(parseToolCallArguments({ orderId: 'A-1' })).toEqual({ orderId: 'A-1' });
  });

  it('reads null and undefined as {}', () => {
    expect(parseToolCallArguments(null)).toEqual({});
    expect(parseToolCallArguments(undefined)).toEqual({});
  });

  it('keeps arguments of another type as their JSON text, for a precise refusal', () => {
    expect(parseToolCallArguments([1, 2])).toBe('[1,2]');
    expect(parseToolCallArguments(7)).toBe('7');
  });
});
