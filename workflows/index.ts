// The workflow bundle's entry point: every workflow toolrail registers on a worker.
export { agentSession } from './agent-session';
