/**
 * Processes of their own for the benchmark and for the tests that need a second container. They talk over
 * the IPC channel `fork` opens: the child announces itself once ready, then answers numbered commands (set
 * a latency, read its CPU time or memory). In the benchmark each server lives in its own process so that the
 * load generator, the service and the upstream compete for the two cores as separate programs do, and so
 * that one's garbage collection never pauses another's clock.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The service as a child (service-child.ts): the real local server, configured by the environment given. */
export const SERVICE_ENTRY = new URL('./service-child.ts', import.meta.url);

type Command = { id: number; cmd: string; arg?: unknown };
type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface Child<Ready> {
  ready: Ready;
  pid: number;
  call<T>(cmd: string, arg?: unknown): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Forks a TypeScript entry under tsx with exactly this environment (plus PATH), so nothing from the
 * caller's shell, such as a real API key, leaks into a measured process.
 */
export function startChild<Ready>(
  entry: URL,
  env: Record<string, string>,
  options: { quiet?: boolean; execArgv?: string[] } = {},
): Promise<Child<Ready>> {
  const path = fileURLToPath(entry);
  const child = fork(path, [], {
    cwd: PROJECT_ROOT,
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', ...env },
    // The service writes one access-log line per request: kept off the terminal, still paid for.
    stdio: ['ignore', 'ignore', options.quiet ? 'pipe' : 'inherit', 'ipc'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  return new Promise((resolve, reject) => {
    const early = (code: number | null) =>
      reject(new Error(`${path} exited with code ${code} before it was ready${stderr ? `:\n${stderr.trim()}` : ''}`));
    child.once('exit', early);
    child.once('error', reject);
    child.on('message', (message: { ready: Ready } | Reply) => {
      if ('ready' in message) {
        child.off('exit', early);
        child.once('exit', (code) => {
          for (const { reject: fail } of pending.values()) fail(new Error(`${path} exited with code ${code}`));
        });
        resolve({
          ready: message.ready as Ready,
          pid: child.pid ?? 0,
          call: <T>(cmd: string, arg?: unknown) =>
            new Promise<T>((ok, fail) => {
              const id = nextId++;
              pending.set(id, { resolve: ok as (value: unknown) => void, reject: fail });
              child.send({ id, cmd, arg } satisfies Command);
            }),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
            }),
        });
        return;
      }
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(new Error(`${path}: ${message.error}`));
    });
  });
}

/** In a child: answers the parent's commands, then says it is ready; exits when the parent goes away. */
export function serveCommands(ready: unknown, handlers: Record<string, (arg: unknown) => unknown>): void {
  process.on('message', async ({ id, cmd, arg }: Command) => {
    const handler = handlers[cmd];
    try {
      if (!handler) throw new Error(`unknown command ${cmd}`);
      process.send?.({ id, ok: true, value: await handler(arg) } satisfies Reply);
    } catch (error) {
      process.send?.({ id, ok: false, error: String(error) } satisfies Reply);
    }
  });
  // A normal exit, not death by signal: --cpu-prof writes its profile only then.
  process.on('disconnect', () => process.exit(0));
  process.on('SIGTERM', () => process.exit(0));
  process.send?.({ ready });
}

/** What every measured process reports: its CPU time so far (µs) and its memory. */
export function usage() {
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  return { cpuUs: cpu.user + cpu.system, rss: memory.rss, heapUsed: memory.heapUsed };
}
export type Usage = ReturnType<typeof usage>;
