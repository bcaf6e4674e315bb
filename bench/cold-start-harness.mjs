// One cold start, in a fresh `node` with nothing preloaded: load a deployed bundle, invoke its handler
// once with an API Gateway event, print the timings as one JSON line, exit. Plain JavaScript, so that
// no loader sits between node and the bundle.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

// Milliseconds since this process began: node's own start-up.
const started = performance.now();
// An optional second event is invoked after the first, in the now warm process: what a warm container pays.
const [bundle, eventFile, secondEventFile] = process.argv.slice(2);
const event = JSON.parse(readFileSync(eventFile, 'utf8'));
const deadline = Date.now() + 28_000;
const context = {
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'bench',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench',
  memoryLimitInMB: '512',
  awsRequestId: event.requestContext?.requestId ?? 'bench',
  logGroupName: '/aws/lambda/bench',
  logStreamName: 'bench',
  getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
};

const beforeLoad = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const loaded = performance.now();
const response = await handler(event, context);
const invoked = performance.now();
let secondInvoke;
if (secondEventFile) {
  const second = await handler(JSON.parse(readFileSync(secondEventFile, 'utf8')), context);
  secondInvoke = performance.now() - invoked;
  if (second?.statusCode !== response?.statusCode) throw new Error(`the second invocation answered ${second?.statusCode}`);
}
process.stdout.write(
  `${JSON.stringify({
    coldStart: {
      boot: started,
      load: loaded - beforeLoad,
      invoke: invoked - loaded,
      secondInvoke,
      total: invoked,
      status: response?.statusCode ?? null,
      rss: process.memoryUsage().rss,
    },
  })}\n`,
);
// Keep-alive sockets to the upstream would hold the process open; the measurement is over.
process.exit(0);
