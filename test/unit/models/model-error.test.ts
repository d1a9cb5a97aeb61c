import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { ModelError, ModelErrorCode, modelErrorToApplicationFailure } from '../../../src/models';

describe('ModelError', () => {
  it('derives retryable from the code unless told otherwise', () => {
    expect(new ModelError({ code: 'SERVER_ERROR', message: 'x', provider: 'p' }).retryable).toBe(true);
    expect(new ModelError({ code: 'BAD_REQUEST', message: 'x', provider: 'p' }).retryable).toBe(false);
    expect(new ModelError({ code: 'SERVER_ERROR', message: 'x', provider: 'p', retryable: false }).retryable).toBe(
      false,
    );
  });

  it('is recognised by isInstance and nothing else is', () => {
    expect(ModelError.isInstance(new ModelError({ code: 'ABORTED', message: 'x', provider: 'p' }))).toBe(true);
    expect(ModelError.isInstance(new Error('x'))).toBe(false);
    expect(ModelError.isInstance({ code: 'ABORTED' })).toBe(false);
  });

  it('serialises to plain JSON without cause or stack', () => {
    const error = new ModelError({
      code: 'RATE_LIMITED',
      message: '429 slow down',
      provider: 'openai',
      retryAfterMs: 2_000,
      status: 429,
      cause: new Error('inner'),
    });
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      code: 'RATE_LIMITED',
      message: 'openai: 429 slow down',
      provider: 'openai',
      retryable: true,
      retryAfterMs: 2_000,
      status: 429,
    });
  });

  it('keeps every code equal to its key, since codes are recorded in histories', () => {
    for (const [key, value] of Object.entries(ModelErrorCode)) expect(value).toBe(key);
  });
});

describe('modelErrorToApplicationFailure', () => {
  it('makes a rate limit a retryable failure typed by its code that retries after the server delay', () => {
    const failure = modelErrorToApplicationFailure(
      new ModelError({
        code: 'RATE_LIMITED',
        message: '429',
        provider: 'anthropic',
        retryAfterMs: 12_000,
        status: 429,
      }),
    );
    expect(failure).toBeInstanceOf(ApplicationFailure);
    expect(failure).toMatchObject({ type: 'RATE_LIMITED', nonRetryable: false, nextRetryDelay: 12_000 });
    expect(failure.details).toEqual([
      {
        code: 'RATE_LIMITED',
        message: 'anthropic: 429',
        provider: 'anthropic',
        retryable: true,
        retryAfterMs: 12_000,
        status: 429,
      },
    ]);
  });

  it('makes a bad request non-retryable', () => {
    const failure = modelErrorToApplicationFailure(
      new ModelError({ code: 'BAD_REQUEST', message: '400', provider: 'openai' }),
    );
    expect(failure).toMatchObject({ type: 'BAD_REQUEST', nonRetryable: true });
    expect(failure.nextRetryDelay).toBeUndefined();
  });
});
