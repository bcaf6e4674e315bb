/**
 * The CDK app: one stack, settings from context (infra/settings.ts), and cdk-nag's AwsSolutions checks as
 * a validation plugin, so that an unacknowledged finding fails `cdk synth` and `cdk deploy`.
 * `cdk.json` runs this file with tsx; the tests build the same app through `createApp`.
 */
import { fileURLToPath } from 'node:url';
import { App, type AppProps, DefaultStackSynthesizer, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { reservedConcurrencyProblem } from './concurrency.js';
import { DeployerStack, dedicatedSynthesizer, deployerStackName } from './deployer.js';
import { DEFAULT_SETTINGS, settingsFromContext } from './settings.js';
import { SearchCitationApiStack } from './stack.js';

/** The default stack name; `-c stackName=...` deploys an independent copy beside it. */
export const STACK_NAME = DEFAULT_SETTINGS.stackName;

/**
 * `deploy.account`: the account the CDK CLI deploys to, which it passes as CDK_DEFAULT_ACCOUNT when it has
 * credentials (unset offline): the secrets' admins must be of that account. With `deployerArns`, the app
 * also holds the stack of the service's own deploy roles (`deployer`), deployed once before the service's.
 */
export function createApp(
  props: AppProps = {},
  deploy: { account?: string } = { account: process.env.CDK_DEFAULT_ACCOUNT },
): { app: App; stack: SearchCitationApiStack; deployer?: DeployerStack } {
  const app = new App(props);
  const settings = settingsFromContext(app.node, deploy);
  const deployer =
    settings.deployerArns.length > 0
      ? new DeployerStack(app, deployerStackName(settings.stackName), {
          description: `Search and Citation API: the roles ${settings.stackName} is deployed through, trusted by the named deployers alone`,
          settings,
        })
      : undefined;
  const stack = new SearchCitationApiStack(app, settings.stackName, {
    description: 'Search and Citation API: one Lambda function per POST path behind an API Gateway REST API',
    settings,
    // With deployerArns, deployed through the deploy role the Deployer stack holds; with bootstrapQualifier,
    // through a bootstrap of its own (its roles, its asset bucket), not the account's default one, which every
    // CDK app deployed there shares.
    ...(deployer
      ? { synthesizer: dedicatedSynthesizer(settings) }
      : settings.bootstrapQualifier
        ? { synthesizer: new DefaultStackSynthesizer({ qualifier: settings.bootstrapQualifier }) }
        : {}),
  });
  // Every function of the stack, whatever built it: a sum over the account's pool fails here, not mid-deploy.
  const problem = reservedConcurrencyProblem(stack, settings);
  if (problem) throw new Error(`Invalid CDK context: ${problem}`);
  // Lets Cost Explorer show what the service costs, once the tag is activated for cost allocation.
  for (const built of [stack, deployer]) if (built) Tags.of(built).add('service', 'search-citation-api');
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack, ...(deployer ? { deployer } : {}) };
}

// Run by the CDK CLI: the App synthesizes itself into the directory the CLI gives it when the process ends.
// A setting the deployer must fix (settings.ts) is said in its one line, which names the fix, and no
// stack trace; anything else is a bug and keeps its trace.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    createApp();
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('Invalid CDK context: ')) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
