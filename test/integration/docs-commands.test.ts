/**
 * Docs that cannot go stale: every command in a fenced block of the README and the guides is either run
 * here or listed in NOT_RUN with the reason it cannot be, so a new command is never skipped in silence.
 *
 * The demo server is started with the README's own `PORT=… npm start` (port 0, so any free one), and the
 * curl commands are run with curl itself, their `http://127.0.0.1:3000` replaced by that server's address:
 * each must answer HTTP 200 with `"success":true`. The budget guide's `SEARCHES_PER_HOUR=N npm start`
 * starts a server of its own, whose search N + 1 must be refused. The README's `npx openapi-typescript`
 * is run against the server, and the README's client recipe must compile with tsc against the types it
 * writes, as in a reader's project; the recipe (the typechecked test/client/example.ts) is also run
 * against the server as the README says to run it. JSON blocks (answers and client configurations) must
 * be JSON, and the MCP Inspector command must name its version.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../../lib/routes.js';
import {
  documentPaths,
  type FencedBlock,
  fencedBlocks,
  PROJECT_ROOT,
  readDocument,
  type ShellCommand,
  shellCommands,
} from '../support/docs-blocks.js';

const run = promisify(execFile);

/** The address every local example is written for. */
const DOC_ORIGIN = 'http://127.0.0.1:3000';

/** Each command no test can run here, by its document and the start of its text, with the reason. */
const NOT_RUN: readonly { file: string; command: string; reason: string }[] = [
  // Installing: downloads from the npm registry.
  { file: 'README.md', command: 'npm install', reason: 'installs from the npm registry (the tests run on the installed tree)' },
  { file: 'README.md', command: 'npm ci', reason: 'installs from the npm registry' },
  { file: 'docs/deploy-and-operations.md', command: 'npm ci', reason: 'installs from the npm registry' },
  { file: 'README.md', command: 'npm test', reason: 'the whole suite, this test among it' },
  { file: 'docs/testing.md', command: 'npm test', reason: 'the whole suite, this test among it' },
  {
    file: 'docs/testing.md',
    command: 'npm run test:quick',
    reason: 'the unit and contract tests, which the suite runs itself (test/unit/suite/quick-suite.test.ts checks the script)',
  },
  // Deploying: an AWS account and its credentials.
  ...['README.md', 'docs/deploy-and-operations.md'].flatMap((file) => [
    { file, command: 'npx cdk bootstrap', reason: 'bootstraps an AWS account' },
    { file, command: 'npm run deploy', reason: 'deploys to an AWS account (the synthesized stack is tested in test/infra/)' },
    { file, command: 'npm run destroy', reason: 'deletes a deployed stack' },
    { file, command: 'out()', reason: 'defines a shell function reading a deployed stack’s outputs with the aws CLI' },
    { file, command: 'aws ', reason: 'the aws CLI against an AWS account' },
    { file, command: 'read -rs SERPAPI_KEY', reason: 'reads a real SerpApi key from the terminal' },
    { file, command: 'read -rs CLIENT_KEY', reason: 'reads a client key of a deployment from the terminal' },
    {
      file,
      command: 'npm run --silent create-key',
      reason: 'writes a key into a deployed secret (the script is tested with a fake: test/infra/create-client-key.test.ts)',
    },
    { file, command: 'curl -s -X POST "$', reason: 'a deployed API, its URL and a client key from the deployment' },
  ]),
  ...['README.md', 'docs/deploy-and-operations.md'].flatMap((file) =>
    ['API_URL', 'KEYS', 'UPSTREAM'].map((name) => ({
      file,
      command: `${name}=$(out `,
      reason: 'reads a deployed stack’s outputs with the aws CLI',
    })),
  ),
  ...['README.md', 'docs/deploy-and-operations.md'].map((file) => ({
    file,
    command: 'ADMIN=$(aws sts get-caller-identity',
    reason: 'asks an AWS account who the caller is',
  })),
  { file: 'docs/deploy-and-operations.md', command: 'sleep 300', reason: 'waits out a deployed secret’s cache' },
  {
    file: 'docs/deploy-and-operations.md',
    command: 'export AWS_',
    reason:
      'sets the reader’s shell up for a Secrets Manager emulator (deployed mode locally is tested with a fake: test/integration/secrets.test.ts)',
  },
  {
    file: 'docs/deploy-and-operations.md',
    command: 'CLIENT_KEYS_SECRET_ID=search-api/client-keys',
    reason:
      'needs a Secrets Manager emulator and an upstream at the addresses given (test/integration/secrets.test.ts runs this mode with fakes)',
  },
  // Part of a block whose other command is run.
  {
    file: 'README.md',
    command: 'npm install openapi-fetch',
    reason: 'installs from the npm registry; both packages are already dependencies of this project',
  },
];

/** Blocks that hold no command and no JSON: by document and the start of their text, with the reason. */
const NOT_COMMANDS: readonly { file: string; starts: string; reason: string }[] = [
  { file: 'docs/architecture.md', starts: 'functions/ ', reason: 'the source tree, not a command' },
  {
    file: 'docs/citations.md',
    starts: 'npx stryker run',
    reason: 'mutation testing: tens of minutes on two cores, run by hand, not part of CI',
  },
];

const SHELL = new Set(['sh', 'bash', 'shell', 'console']);

const blocks: FencedBlock[] = documentPaths().flatMap((file) => fencedBlocks(file, readDocument(file)));
const shellBlocks = blocks.filter((block) => SHELL.has(block.lang));
const commands: (ShellCommand & { file: string; line: number })[] = shellBlocks.flatMap((block) =>
  shellCommands(block.text).map((command) => ({ ...command, file: block.file, line: block.line })),
);
const where = (command: { file: string; line: number; source: string }) => `${command.file}:${command.line}: ${command.source}`;

const isLocalCurl = (command: ShellCommand) =>
  command.argv[0] === 'curl' && !command.expands && command.argv.some((word) => word.startsWith(`${DOC_ORIGIN}/`));
/** `npm start`, or with another port: the command this test starts its server with. */
const isNpmStart = (command: ShellCommand) => /^(PORT=\d+ )?npm start$/.test(command.argv.join(' ')) && !command.expands;
/** `SEARCHES_PER_HOUR=N npm start`: the budget's example, whose search N + 1 is refused. */
const isBudgetStart = (command: ShellCommand) =>
  /^SEARCHES_PER_HOUR=\d+ npm start$/.test(command.argv.join(' ')) && !command.expands;
const isOpenapiTypescript = (command: ShellCommand) =>
  command.argv[0] === 'npx' && command.argv[1] === 'openapi-typescript' && command.argv[2] === `${DOC_ORIGIN}/openapi.json`;
/** The typed client's new project, its typecheck and its run (README, "Calling it from TypeScript"). */
const isNpmInit = (command: ShellCommand) => command.argv.join(' ') === 'npm init -y';
const isRecipeCompile = (command: ShellCommand) =>
  command.argv[0] === 'npx' && command.argv[1] === 'tsc' && /\.mts$/.test(command.argv.at(-1) ?? '') && !command.expands;
const isRecipeRun = (command: ShellCommand) =>
  /^(\w+=\S+ )*npx tsx [\w-]+\.mts$/.test(command.argv.join(' ')) && !command.expands;
/** The entry that lists a command: the most specific one, when a longer start matches too. */
const notRun = (command: { file: string; source: string }) =>
  NOT_RUN.filter((entry) => entry.file === command.file && command.source.startsWith(entry.command)).sort(
    (a, b) => b.command.length - a.command.length,
  )[0];

/** The README's `PORT=… npm start` line: the one that starts the server on another port. */
const startCommand = commands.find(
  (command) => command.file === 'README.md' && isNpmStart(command) && command.argv[0]?.startsWith('PORT='),
);

const servers: ChildProcess[] = [];
let origin = '';
let workDir = '';

/** Runs `npm start` with these variables (PORT=0: a free port) as a reader would, on the demo only; its address. */
async function npmStart(assignments: string[]): Promise<string> {
  const variables = Object.fromEntries(assignments.map((word) => word.split('=', 2) as [string, string]));
  // Only the demo: no key or upstream of the shell that runs the tests, and no fake's address from vitest's settings.
  const env: Record<string, string | undefined> = { ...process.env, ...variables, PORT: '0' };
  for (const name of [
    'API_KEYS',
    'CLIENT_KEYS_SECRET_ID',
    'SERPAPI_API_KEY',
    'SERPAPI_SECRET_ID',
    'SERPAPI_BASE_URL',
    'CROSSREF_BASE_URL',
  ]) {
    delete env[name];
  }
  // npm runs the script in a shell of its own: a process group of its own, ended as a whole.
  const server = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  servers.push(server);
  return new Promise<string>((resolve, reject) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (url) resolve(url);
    };
    server.stdout?.on('data', read);
    server.stderr?.on('data', read);
    server.on('exit', (code) => reject(new Error(`npm start exited with ${code} before it listened:\n${out}`)));
  });
}

beforeAll(async () => {
  if (!startCommand) throw new Error('README.md shows no `PORT=… npm start` command to start the server with');
  origin = await npmStart(startCommand.argv.slice(0, -2));
  workDir = mkdtempSync(join(tmpdir(), 'docs-commands-'));
});

afterAll(() => {
  for (const server of servers) if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe('the command blocks of the README and the guides', () => {
  it('are found: the README has local curl commands, a start command and deploy commands', () => {
    expect(commands.filter(isLocalCurl).length).toBeGreaterThanOrEqual(10);
    expect(startCommand?.source).toMatch(/^PORT=\d+ npm start$/);
    expect(commands.some((command) => command.source.startsWith('npm run deploy'))).toBe(true);
  });

  it('each command is run by this test or listed, with its reason, as one that cannot be', () => {
    const neither = commands.filter(
      (command) =>
        !isLocalCurl(command) &&
        !isNpmStart(command) &&
        !isBudgetStart(command) &&
        !isOpenapiTypescript(command) &&
        !isNpmInit(command) &&
        !isRecipeCompile(command) &&
        !isRecipeRun(command) &&
        !notRun(command),
    );
    expect(neither.map(where), 'commands no test runs: run them here, or list them in NOT_RUN with the reason').toEqual([]);
  });

  it('lists no command that is not in the documents any more', () => {
    const stale = NOT_RUN.filter(
      (entry) => !commands.some((command) => command.file === entry.file && notRun(command) === entry),
    );
    expect(stale.map((entry) => `${entry.file}: ${entry.command}`)).toEqual([]);
  });

  it('every other block is JSON, the typechecked client recipe, or listed as no command', () => {
    const unknown = blocks.filter((block) => {
      if (SHELL.has(block.lang) || block.lang === 'json' || block.lang === 'ts') return false;
      return !NOT_COMMANDS.some((entry) => entry.file === block.file && block.text.startsWith(entry.starts));
    });
    expect(unknown.map((block) => `${block.file}:${block.line} (${block.lang || 'no language'})`)).toEqual([]);
  });

  it('reads shell words as the shell does, for the forms the documents use', () => {
    const read = shellCommands(
      [
        "curl -s http://x -H 'A: b' \\",
        `  -d '{"a":["one",`,
        `  "two"]}'   # a comment`,
        'npm install && PORT=8080 npm start',
        `out() { aws x --query "S[?K=='$1']"; }`,
        'API_URL=$(out ApiUrl); KEYS=x',
      ].join('\n'),
    );
    expect(read.map(({ argv, expands, chained }) => ({ argv, expands, chained }))).toEqual([
      { argv: ['curl', '-s', 'http://x', '-H', 'A: b', '-d', '{"a":["one",\n  "two"]}'], expands: false, chained: false },
      { argv: ['npm', 'install'], expands: false, chained: false },
      { argv: ['PORT=8080', 'npm', 'start'], expands: false, chained: true },
      { argv: ['out()', '{', 'aws', 'x', '--query', "S[?K=='$1']", '}'], expands: true, chained: false },
      { argv: ['API_URL=$(out', 'ApiUrl)'], expands: true, chained: false },
      { argv: ['KEYS=x'], expands: false, chained: true },
    ]);
    expect(read[0]?.source).toBe(`curl -s http://x -H 'A: b' -d '{"a":["one",\n  "two"]}'`);
  });

  it('every JSON block is JSON: one value, or several one after the other', () => {
    const invalid = blocks.filter((block) => block.lang === 'json' && !isJsonSequence(block.text));
    expect(invalid.map((block) => `${block.file}:${block.line}`)).toEqual([]);
  });
});

describe('the curl commands against the demo server (`npm start`)', () => {
  const curls = commands.filter(isLocalCurl);
  it.each(curls.map((command) => [where(command), command] as const))(
    '%s answers its success status (200, 202 for a job) and "success":true',
    async (_name, command) => {
      const argv = command.argv.slice(1).map((word) => word.replaceAll(DOC_ORIGIN, origin));
      const { stdout } = await run('curl', [...argv, '--max-time', '60', '-w', '\n%{http_code}'], {
        maxBuffer: 64 * 1024 * 1024,
      });
      const status = stdout.slice(stdout.lastIndexOf('\n') + 1);
      const body = stdout.slice(0, stdout.lastIndexOf('\n'));
      // A job's submission is answered 202 (its route's success status); every other example 200.
      const route = ROUTES.find((known) => argv.some((word) => word.startsWith(origin) && new URL(word).pathname === known.path));
      expect({ status, body: body.slice(0, 2_000) }).toMatchObject({ status: String(route?.successStatus ?? 200) });
      expect(JSON.parse(body)).toMatchObject({ success: true });
    },
    60_000,
  );
});

describe('the budget’s example (`SEARCHES_PER_HOUR=N npm start`)', () => {
  const budgetStarts = commands.filter(isBudgetStart);
  it.each(budgetStarts.map((command) => [where(command), command] as const))(
    '%s: N paid searches are answered, the next one is 429 BUDGET_EXHAUSTED',
    async (_name, command) => {
      const limit = Number(command.argv[0]?.split('=')[1]);
      const limited = await npmStart(command.argv.slice(0, -2));
      // Different terms each time: an answer from the cache is no paid search.
      const search = (i: number) =>
        fetch(`${limited}/v1/web-search/alpha`, {
          method: 'POST',
          headers: { Authorization: 'Bearer demo-key', 'Content-Type': 'application/json' },
          body: JSON.stringify({ q: `coffee ${i}` }),
        });
      for (let i = 1; i <= limit; i++) expect((await search(i)).status, `search ${i}`).toBe(200);
      const refused = await search(limit + 1);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'BUDGET_EXHAUSTED' } });
    },
    120_000,
  );
});

describe('the README’s typed client', () => {
  const recipe = () => blocks.filter((block) => block.file === 'README.md' && block.lang === 'ts');
  /** The README's commands of the recipe, by what they do. */
  const init = () => commands.filter((command) => command.file === 'README.md' && isNpmInit(command));
  const compile = () => commands.filter((command) => command.file === 'README.md' && isRecipeCompile(command));
  const runRecipe = () => commands.filter((command) => command.file === 'README.md' && isRecipeRun(command));
  /** A reader's new project: `npm init -y` as the README runs it, the types it generates, the recipe in the file it names. */
  let project = '';
  let recipeFile = '';
  const tsc = join(PROJECT_ROOT, 'node_modules/.bin/tsc');
  const compiles = (args: string[]) =>
    run(tsc, args, { cwd: project }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );

  beforeAll(async () => {
    project = join(workDir, 'reader-project');
    mkdirSync(project);
    const [initCommand] = init();
    if (!initCommand) throw new Error('README.md shows no `npm init -y` for the typed client');
    await run('npm', initCommand.argv.slice(1), { cwd: project, env: { ...process.env, npm_config_yes: 'true' } });
    // The packages the README installs are this project's own: linked, not downloaded.
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(project, 'node_modules'));
    const [generate] = commands.filter(isOpenapiTypescript);
    const argv = (generate?.argv ?? []).slice(1).map((word) => word.replaceAll(DOC_ORIGIN, origin));
    await run(join(PROJECT_ROOT, 'node_modules/.bin/openapi-typescript'), argv.slice(1), { cwd: project });
    recipeFile = compile()[0]?.argv.at(-1) ?? '';
    writeFileSync(join(project, recipeFile), recipe()[0]?.text ?? '');
  }, 120_000);

  it('is the code of test/client/example.ts, which `npm run typecheck` compiles', () => {
    expect(recipe()).toHaveLength(1);
    const example = readFileSync(join(PROJECT_ROOT, 'test/client/example.ts'), 'utf8');
    const marked = /\/\/ README example: start\n([\s\S]*?)\/\/ README example: end\n/.exec(example)?.[1];
    expect(`${recipe()[0]?.text}\n`).toBe(marked);
    const tsconfig = JSON.parse(readFileSync(join(PROJECT_ROOT, 'tsconfig.json'), 'utf8'));
    expect(tsconfig.include).toContain('test');
  });

  it('is set up as in a new project: `npm init -y` (no "type": "module"), the types the README’s `npx openapi-typescript` writes', () => {
    expect(init().map((command) => command.source)).toEqual(['npm init -y']);
    const written = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as { type?: string };
    expect(written.type).not.toBe('module');
    expect(commands.filter(isOpenapiTypescript).map(where)).toHaveLength(1);
    expect(readFileSync(join(project, 'api.d.ts'), 'utf8')).toContain('"/v1/cite/search"');
  });

  it('compiles with the README’s own tsc command, as written', async () => {
    expect(compile().map((command) => command.source)).toHaveLength(1);
    expect(recipeFile).toMatch(/\.mts$/);
    expect(await compiles(compile()[0]?.argv.slice(2) ?? [])).toBe('');
  }, 120_000);

  it('fails that command when a path, a field’s type or an answer’s field is wrong: the types do check', async () => {
    const text = recipe()[0]?.text ?? '';
    const broken = {
      'wrong-path.mts': text.replace("'/v1/cite/search'", "'/v1/cite/serch'"),
      'wrong-type.mts': text.replace("query: 'bananas'", 'query: 42'),
      'wrong-answer.mts': text.replace('data.data.reference_list', 'data.data.references'),
    };
    for (const [file, source] of Object.entries(broken)) {
      expect(source, file).not.toBe(text);
      writeFileSync(join(project, file), source);
    }
    const args = (compile()[0]?.argv.slice(2) ?? []).filter((word) => word !== recipeFile);
    const output = await compiles([...args, ...Object.keys(broken)]);
    for (const file of Object.keys(broken))
      expect(output, file).toMatch(new RegExp(`^${file.replace('.', '\\.')}\\(\\d+,\\d+\\): error TS`, 'm'));
  }, 120_000);

  it('runs in that project against the demo server as the README says, printing the reference list', async () => {
    const [command] = runRecipe();
    expect(command?.source).toBe(`API_URL=http://127.0.0.1:3000 API_KEY=demo-key npx tsx ${recipeFile}`);
    const env = Object.fromEntries((command?.argv ?? []).filter((word) => /^\w+=/.test(word)).map((word) => word.split('=', 2)));
    const { stdout, stderr } = await run('npx', ['--no-install', 'tsx', recipeFile], {
      cwd: project,
      env: { ...process.env, ...env, API_URL: origin },
    });
    expect(stderr).not.toMatch(/^\d{3} /m);
    expect(stdout).toMatch(/\(\d{4}\)/);
  }, 60_000);

  it('runs from this repository against the demo server as the README says to run it, printing the reference list', async () => {
    const line = /`(API_URL=http:\/\/127\.0\.0\.1:3000 API_KEY=demo-key npx tsx test\/client\/example\.ts)`/.exec(
      readDocument('README.md'),
    );
    expect(line, 'the README says how to run the recipe against npm start').not.toBeNull();
    const [command] = shellCommands(line?.[1] ?? '');
    const env = Object.fromEntries((command?.argv ?? []).filter((word) => /^\w+=/.test(word)).map((word) => word.split('=', 2)));
    const argv = (command?.argv ?? []).filter((word) => !/^\w+=/.test(word));
    expect(argv).toEqual(['npx', 'tsx', 'test/client/example.ts']);
    const { stdout, stderr } = await run('npx', ['--no-install', ...argv.slice(1)], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env, API_URL: origin },
    });
    expect(stderr).not.toMatch(/^\d{3} /m);
    expect(stdout.trim().split('\n').length).toBeGreaterThanOrEqual(1);
    expect(stdout).toMatch(/\(\d{4}\)/);
  }, 60_000);
});

describe('`npm run synth` without an admin for the secrets or anyone for the alarms', () => {
  it('exits 1 with one line naming each setting and how to give it, and no stack trace', async () => {
    // As on a fresh clone: none of the service's own configuration, no context but cdk.json's.
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of ['API_KEYS', 'SERPAPI_API_KEY', 'CLIENT_KEYS_SECRET_ID', 'SERPAPI_SECRET_ID']) delete env[name];
    const outcome = await run('npm', ['run', '--silent', 'synth'], { cwd: PROJECT_ROOT, env }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code?: number; stdout?: string; stderr?: string }) => ({
        code: error.code,
        stdout: error.stdout ?? '',
        stderr: error.stderr ?? '',
      }),
    );
    expect(outcome.code).toBe(1);
    expect(`${outcome.stdout}${outcome.stderr}`).not.toMatch(/^\s+at /m);
    const lines = outcome.stderr.trim().split('\n');
    // The app's one line, then the CDK CLI's own word that the app exited with an error.
    expect(lines).toHaveLength(2);
    // Every setting a fresh clone lacks, each with how to give it: who hears the alarms, who puts the keys, who
    // Crossref and DataCite may write to.
    expect(lines[0]).toMatch(
      /^Invalid CDK context: alarmEmail: required\b.* -c alarmEmail=.*; secretAdminArns: required\b.* -c secretAdminArns=.*; crossrefMailto: required\b.* -c crossrefMailto=/,
    );
    expect(lines[1]).toMatch(/Subprocess exited with error 1$/);
    expect(outcome.stdout.trim()).toBe('');
  }, 120_000);
});

describe('`npm run synth` as the docs write it inline', () => {
  // Every `npm run synth -- …` span of the README and the guides that is a whole command (no <placeholder>).
  const written = documentPaths().flatMap((file) =>
    [...readDocument(file).matchAll(/`(npm run synth -- [^`<]*)`/g)].map((match) => ({ file, command: match[1] as string })),
  );

  it('includes the README’s own', () => {
    expect(written.filter(({ file }) => file === 'README.md').length).toBeGreaterThanOrEqual(1);
  });

  it('synthesizes the stack, exit 0, run as written on a fresh clone (no service configuration, no AWS account)', async () => {
    const env: Record<string, string | undefined> = { ...process.env };
    for (const name of ['API_KEYS', 'SERPAPI_API_KEY', 'CLIENT_KEYS_SECRET_ID', 'SERPAPI_SECRET_ID', 'CDK_DEFAULT_ACCOUNT']) {
      delete env[name];
    }
    for (const command of new Set(written.map((w) => w.command))) {
      const outcome = await run('bash', ['-c', command], { cwd: PROJECT_ROOT, env, maxBuffer: 64 * 1024 * 1024 }).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }),
      );
      expect(outcome.code, `${command}\n${outcome.stderr}`).toBe(0);
    }
  }, 900_000);
});

describe('the MCP Inspector command (docs/mcp.md)', () => {
  it('is pinned to a version, so that Node 20 does not resolve an old one without --header', () => {
    const mcp = readDocument('docs/mcp.md');
    const runs = [...mcp.matchAll(/`(npx [^`]*@modelcontextprotocol\/inspector[^`]*--cli[^`]*)`/g)].map((match) => match[1]);
    expect(runs.length).toBeGreaterThanOrEqual(1);
    for (const command of runs) expect(command).toMatch(/@modelcontextprotocol\/inspector@\d+\.\d+\.\d+ /);
  });

  it('gives the size of the demo server’s tools/list to the nearest 100 characters, and its number of tools', async () => {
    const said = /~([\d,]+) characters for (\d+) tools/.exec(readDocument('docs/mcp.md'));
    expect(said, 'docs/mcp.md gives the size of tools/list').not.toBeNull();
    const client = new Client({ name: 'docs-commands-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), {
        requestInit: { headers: { Authorization: 'Bearer demo-key' } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      // Measured as test/integration/mcp-tools.test.ts holds it under its limit.
      const size = JSON.stringify(tools).length;
      expect(said?.[0]).toBe(`~${(Math.round(size / 100) * 100).toLocaleString('en-US')} characters for ${tools.length} tools`);
    } finally {
      await client.close();
    }
  }, 60_000);
});

/** JSON text, or JSON values one after the other (an answer and an error, one per line). */
function isJsonSequence(text: string): boolean {
  let rest = text.trim();
  while (rest !== '') {
    let end = rest.length;
    for (; end > 0; end--) {
      try {
        JSON.parse(rest.slice(0, end));
        break;
      } catch {
        // a shorter prefix may be one whole value
      }
    }
    if (end === 0) return false;
    rest = rest.slice(end).trim();
  }
  return true;
}
