/** Cold starts: each bundle loaded and invoked once in a fresh `node` process, many times over. */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { toApiGatewayEvent } from '../lib/local/apigw-event.js';
import { median } from './load.js';

const HARNESS = fileURLToPath(new URL('./cold-start-harness.mjs', import.meta.url));

/** The API Gateway REST proxy event production sends for a POST with this body, built by the local server's own converter. */
export function apiGatewayEvent(path: string, body: string, clientKey: string): unknown {
  const headers = {
    Host: 'api.example.com',
    'User-Agent': 'bench',
    Authorization: `Bearer ${clientKey}`,
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Forwarded-For': '203.0.113.7',
  };
  const request = {
    rawHeaders: Object.entries(headers).flat(),
    headers: { 'user-agent': headers['User-Agent'] },
    url: path,
    method: 'POST',
    httpVersion: '1.1',
    socket: { remoteAddress: '203.0.113.7' },
  } as unknown as IncomingMessage;
  return toApiGatewayEvent(request, path, path, body, randomUUID());
}

export interface ColdStartRun {
  /** From spawn to the harness's answer, as the parent saw it: what a fresh container pays in-process. */
  wall: number;
  /** Node's own start-up, before the harness ran. */
  boot: number;
  /** Loading (parsing, evaluating) the bundle. */
  load: number;
  /** The first invocation. */
  invoke: number;
  /** A second invocation in the same process, when a second event was given. */
  secondInvoke?: number;
  status: number | null;
  /** Resident memory after the first invocation, bytes: what the function's memory setting must hold. */
  rss: number;
}

export interface ColdStartSummary {
  runs: number;
  median_ms: number;
  min_ms: number;
  boot_ms: number;
  load_ms: number;
  invoke_ms: number;
  /** The second invocation's median, when the runs had one. */
  second_invoke_ms?: number;
  rss_mib: number;
  status: number | null;
}

/** One cold start of `file` with this exact environment (nothing else is inherited). */
export function coldStartOnce(
  file: string,
  eventFile: string,
  env: Record<string, string>,
  secondEventFile?: string,
): Promise<ColdStartRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [HARNESS, file, eventFile, ...(secondEventFile ? [secondEventFile] : [])], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let result: ColdStartRun | undefined;
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      if (result) return;
      const line = out.split('\n').find((l) => l.startsWith('{"coldStart"'));
      if (line === undefined || !out.includes('\n', out.indexOf(line))) return;
      const { coldStart } = JSON.parse(line) as { coldStart: Omit<ColdStartRun, 'wall'> };
      // Spawn to the first answer: a second invocation (the warm answer the first-answer rows compare
      // with) runs before the harness writes its line, and is no part of the cold one.
      const wall = performance.now() - started - (coldStart.secondInvoke ?? 0);
      result = { wall, ...coldStart };
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      if (result && code === 0) resolve(result);
      // The end of what it wrote: a minified bundle's error quotes a whole source line before the message.
      else reject(new Error(`cold start of ${file} exited with code ${code}: ${(err || out).trim().slice(-2000)}`));
    });
  });
}

export function summarise(runs: ColdStartRun[]): ColdStartSummary {
  const statuses = new Set(runs.map((r) => r.status));
  return {
    runs: runs.length,
    median_ms: median(runs.map((r) => r.wall)),
    min_ms: Math.min(...runs.map((r) => r.wall)),
    boot_ms: median(runs.map((r) => r.boot)),
    load_ms: median(runs.map((r) => r.load)),
    invoke_ms: median(runs.map((r) => r.invoke)),
    ...(runs.every((r) => r.secondInvoke !== undefined)
      ? { second_invoke_ms: median(runs.map((r) => r.secondInvoke as number)) }
      : {}),
    rss_mib: median(runs.map((r) => r.rss)) / 2 ** 20,
    // Every run of a bundle must end alike; a mix would mean the measurement itself is unstable.
    status: statuses.size === 1 ? (runs[0]?.status ?? null) : -1,
  };
}

export interface ColdStartJob {
  /** How the runs are reported, e.g. variant/handler. */
  key: string;
  file: string;
  eventFile: string;
  env: Record<string, string>;
  /** An event invoked again in the same process once the first has answered: what a warm container pays. */
  secondEventFile?: string;
}

/**
 * Runs every job `rounds` times, in rotation (one start of each job per round), and answers each job's
 * runs. A slow moment on a shared machine then lands on every bundle and variant alike.
 */
export async function coldStarts(jobs: readonly ColdStartJob[], rounds: number): Promise<Map<string, ColdStartRun[]>> {
  const runs = new Map<string, ColdStartRun[]>(jobs.map((job) => [job.key, []]));
  // The first start of each file after it was written also pays for reading it from disk; not counted.
  const files = new Set<string>();
  for (const job of jobs) {
    if (files.has(job.file)) continue;
    files.add(job.file);
    await coldStartOnce(job.file, job.eventFile, job.env);
  }
  for (let round = 0; round < rounds; round++) {
    for (const job of jobs) runs.get(job.key)?.push(await coldStartOnce(job.file, job.eventFile, job.env, job.secondEventFile));
  }
  return runs;
}
