import type { ToolrailWorkerModule } from 'toolrail';
import { supportDeskScript } from './support-desk-script';
import { createSupportDeskTools } from './support-desk-tools';

/** `toolrail worker --module examples/support-desk/worker-module.ts`: the demo desk's tools and scripted model. */
const supportDesk: ToolrailWorkerModule = {
  tools: createSupportDeskTools(),
  scriptedModels: { 'support-desk': supportDeskScript() },
};

export default supportDesk;
