// What other workspaces may use of the worker: starting it in-process with the catalog's handlers. Its configuration
// is the separate entry './config', so reading the environment's schema does not load BullMQ.
export { platformEventHandlers, type AnyJobHandler } from './handlers/index.js';
export { startMeteringWorker, type MeteringWorker, type MeteringWorkerOptions } from './metering-worker.js';
