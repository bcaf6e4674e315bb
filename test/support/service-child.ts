/**
 * The service in a process of its own, as a Lambda container is: the real local server (every route, the
 * real middleware and handlers) with its own memory, configured by the environment its parent gives it,
 * announcing its URL over the IPC channel and reporting its CPU time and memory when asked.
 */
import { serveCommands, usage } from './child-process.js';

// Config is read when the handlers load: the environment is already this process's own.
const { startLocalServer } = await import('../../lib/local/server.js');
const local = await startLocalServer({ port: 0, host: '127.0.0.1' });

serveCommands({ url: local.url }, { usage });
