/**
 * A codec module: `toolrail worker --codec-module examples/payload-codec/codec-module.ts` (or
 * `TOOLRAIL_CODEC_MODULE`) encrypts the worker's payloads and everything it writes to the content
 * store with it, and the other `toolrail` commands read such sessions with it. The codec server
 * (`codec-server.ts`) serves the same codecs to the Web UI.
 */
import { aesGcmCodecFromEnvironment } from './aes-gcm-codec';

export const payloadCodecs = [aesGcmCodecFromEnvironment()];
