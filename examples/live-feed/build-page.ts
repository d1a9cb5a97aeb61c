import path from 'node:path';
import { build } from 'esbuild';

/**
 * The chat page's script (`page/chat-page.tsx` with React and the AI SDK), bundled for the browser
 * in memory by esbuild: no build step, nothing fetched.
 */
export async function buildChatPage(): Promise<string> {
  const result = await build({
    entryPoints: [path.join(__dirname, 'page', 'chat-page.tsx')],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    minify: true,
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no chat page');
  return output.text;
}
