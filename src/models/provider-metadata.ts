import type { JSONValue } from '@ai-sdk/provider';

/**
 * Provider-specific data keyed by provider name, as the AI SDK's provider interface passes it
 * (`{ anthropic: { signature: '…' } }`). Plain JSON.
 */
export type ProviderMetadata = Record<string, Record<string, JSONValue>>;
