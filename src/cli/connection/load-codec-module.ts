import path from 'node:path';
import type { PayloadCodec } from '@temporalio/common';
import { ToolrailError } from '../../errors';
import { importUserModule } from '../import-user-module';

/** Environment variable naming the codec module when `--codec-module` is not given. */
export const codecModuleEnv = 'TOOLRAIL_CODEC_MODULE';

/** A codec module that cannot be loaded, exports no codecs, or whose codecs cannot decode a session's payloads. */
export class CodecModuleError extends ToolrailError {
  static override readonly brand = Symbol.for('toolrail.error.CODEC_MODULE');
  declare readonly code: 'CODEC_MODULE';

  constructor({ message, cause }: { message: string; cause?: unknown }) {
    super({ code: 'CODEC_MODULE', message, cause });
    this.name = 'CodecModuleError';
  }
}

const expected =
  'expected it to export payloadCodecs: an array of PayloadCodec ({ encode(payloads), decode(payloads) }), or a function returning one';

/**
 * The payload codecs of the module at `file` (else `$TOOLRAIL_CODEC_MODULE`; none when neither is
 * set): the same module the workers' data converter and the codec server use. The module exports
 * `payloadCodecs` (named, or on its default export): an array of `PayloadCodec`, or a function
 * returning one (or a promise of one), e.g. to fetch a key first. Rejects with a
 * {@link CodecModuleError} naming the file and what is wrong.
 */
export async function loadCodecModule(file: string | undefined): Promise<PayloadCodec[]> {
  const chosen = file?.trim() || process.env[codecModuleEnv]?.trim() || '';
  if (chosen === '') return [];
  const resolved = path.resolve(chosen);
  let loaded: unknown;
  try {
    loaded = await importUserModule(resolved);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CodecModuleError({ message: `codec module ${resolved} could not be loaded: ${reason}`, cause: error });
  }
  const exported = payloadCodecsExport(loaded);
  if (exported === undefined) throw new CodecModuleError({ message: `codec module ${resolved}: ${expected}` });
  const codecs: unknown = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (!Array.isArray(codecs) || !codecs.every(isPayloadCodec))
    throw new CodecModuleError({
      message: `codec module ${resolved}: payloadCodecs is not an array of PayloadCodec; ${expected}`,
    });
  return codecs.map((codec) => namingFailures(codec, resolved));
}

/** `codec`, whose decode failures say which module failed and what that usually means. */
function namingFailures(codec: PayloadCodec, file: string): PayloadCodec {
  return {
    encode: (payloads, context) => codec.encode(payloads, context),
    async decode(payloads, context) {
      try {
        return await codec.decode(payloads, context);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new CodecModuleError({
          message: `the payload codecs of ${file} cannot decode the session's payloads (${reason}): they were written with other codecs or another key`,
          cause: error,
        });
      }
    },
  };
}

/** `payloadCodecs` of a module as `import()` returns it: named, or on a default export (CommonJS interop nests it). */
function payloadCodecsExport(loaded: unknown): unknown {
  for (let value = loaded, depth = 0; typeof value === 'object' && value !== null && depth < 3; depth++) {
    const { payloadCodecs } = value as { payloadCodecs?: unknown };
    if (payloadCodecs !== undefined) return payloadCodecs;
    value = (value as { default?: unknown }).default;
  }
  return undefined;
}

function isPayloadCodec(value: unknown): value is PayloadCodec {
  const codec = value as Partial<PayloadCodec> | null;
  return typeof codec?.encode === 'function' && typeof codec.decode === 'function';
}
