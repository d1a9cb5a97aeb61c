// The workflow bundle's entry point: every workflow toolrail registers on a worker.
export { smokeWorkflow } from './smoke-workflow';
