/**
 * A deploy role of the stack's own, trusted only by the principals named in `deployerArns`, and the
 * CloudFormation execution role that it alone is given to pass. The CDK bootstrap's deploy role trusts the
 * whole account (any principal whose own policies allow sts:AssumeRole on it) and may pass the bootstrap's
 * execution role, which the secrets' denies must exempt for CloudFormation to manage them
 * (docs/deploy-and-operations.md, "Who may read the secrets"; docs/decisions.md §16). With these roles the
 * stack deploys through them (its synthesizer names them) and only this execution role is exempt.
 *
 * They live in a stack of their own, `<stackName>-Deployer`, deployed once by an administrator with their
 * own credentials (CliCredentialsStackSynthesizer: no bootstrap role is involved), before the service's
 * stack: a stack cannot deploy through roles it creates itself.
 */
import { createHash } from 'node:crypto';
import { CliCredentialsStackSynthesizer, DefaultStackSynthesizer, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { StackSettings } from './settings.js';

/** The CDK bootstrap's default qualifier, which `bootstrapQualifier` replaces. */
const DEFAULT_QUALIFIER = DefaultStackSynthesizer.DEFAULT_QUALIFIER;

/** The two roles' names: the stack's name, shortened with a hash when IAM's 64 characters would not hold it. */
export function deployerRoleNames(stackName: string): { deployRole: string; executionRole: string } {
  const base =
    stackName.length <= 50
      ? stackName
      : `${stackName.slice(0, 41)}-${createHash('sha256').update(stackName).digest('hex').slice(0, 8)}`;
  return { deployRole: `${base}-deploy`, executionRole: `${base}-cfn-exec` };
}

/** The name of the stack that holds the roles of the stack named `stackName`. */
export const deployerStackName = (stackName: string) => `${stackName}-Deployer`;

/**
 * The synthesizer of the service's stack when it has deployers of its own: the bootstrap's (default or
 * qualified) assets and version check, with this stack's deploy role and execution role in place of the
 * bootstrap's.
 */
export function dedicatedSynthesizer(settings: Pick<StackSettings, 'stackName' | 'bootstrapQualifier'>) {
  const names = deployerRoleNames(settings.stackName);
  const role = (name: string) => `arn:\${AWS::Partition}:iam::\${AWS::AccountId}:role/${name}`;
  return new DefaultStackSynthesizer({
    ...(settings.bootstrapQualifier ? { qualifier: settings.bootstrapQualifier } : {}),
    deployRoleArn: role(names.deployRole),
    cloudFormationExecutionRole: role(names.executionRole),
  });
}

export interface DeployerStackProps extends StackProps {
  settings: StackSettings;
}

/** `<stackName>-Deployer`: the deploy role the named principals alone may assume, and the execution role it passes. */
export class DeployerStack extends Stack {
  readonly deployRole: iam.Role;
  readonly executionRole: iam.Role;

  constructor(scope: Construct, id: string, props: DeployerStackProps) {
    const { settings } = props;
    const qualifier = settings.bootstrapQualifier ?? DEFAULT_QUALIFIER;
    super(scope, id, {
      ...props,
      // Deployed with the administrator's own credentials: no bootstrap role can change these roles.
      synthesizer: new CliCredentialsStackSynthesizer({ qualifier }),
    });
    const names = deployerRoleNames(settings.stackName);

    // What CloudFormation acts as when it deploys the service's stack: as the bootstrap's own execution
    // role is by default (AdministratorAccess), since the stack creates IAM roles, functions, tables, a WAF
    // web ACL and alarms. Only the deploy role below may pass it; an IAM administrator can anyway.
    this.executionRole = new iam.Role(this, 'ExecutionRole', {
      roleName: names.executionRole,
      description: `CloudFormation deploys ${settings.stackName} as this role; only ${names.deployRole} may pass it`,
      assumedBy: new iam.ServicePrincipal('cloudformation.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AdministratorAccess')],
    });

    const exact = settings.deployerArns.filter((arn) => !arn.includes('*'));
    const patterns = settings.deployerArns.filter((arn) => arn.includes('*'));
    // The account as principal, narrowed to the named principals by aws:PrincipalArn: a role given by its
    // session ARN matches by pattern whatever its path, and a role deleted and created again under the same
    // name matches again (settings.ts, principalMatches).
    const trusted = new iam.PrincipalWithConditions(new iam.AccountRootPrincipal(), {
      ...(exact.length > 0 ? { StringEquals: { 'aws:PrincipalArn': exact } } : {}),
      ...(patterns.length > 0 ? { ArnLike: { 'aws:PrincipalArn': patterns } } : {}),
    });
    const stackArn = this.formatArn({ service: 'cloudformation', resource: 'stack', resourceName: `${settings.stackName}/*` });
    const bucketArn = `arn:${this.partition}:s3:::cdk-${qualifier}-assets-${this.account}-${this.region}`;
    this.deployRole = new iam.Role(this, 'DeployRole', {
      roleName: names.deployRole,
      description: `Deploys ${settings.stackName} (cdk deploy / destroy); trusted only by the principals in deployerArns`,
      assumedBy: trusted,
      // What the CLI reads while it deploys, as the bootstrap's deploy role has it.
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AWSCloudFormationReadOnlyAccess')],
      inlinePolicies: {
        deploy: new iam.PolicyDocument({
          statements: [
            new iam.PolicyStatement({
              sid: 'DeployThisStackOnly',
              actions: [
                'cloudformation:CreateChangeSet',
                'cloudformation:DeleteChangeSet',
                'cloudformation:ExecuteChangeSet',
                'cloudformation:DescribeChangeSet',
                'cloudformation:CreateStack',
                'cloudformation:UpdateStack',
                'cloudformation:DeleteStack',
                'cloudformation:RollbackStack',
                'cloudformation:ContinueUpdateRollback',
                'cloudformation:UpdateTerminationProtection',
              ],
              resources: [stackArn],
            }),
            new iam.PolicyStatement({
              sid: 'PassTheExecutionRoleOnly',
              actions: ['iam:PassRole'],
              resources: [this.executionRole.roleArn],
              conditions: { StringEquals: { 'iam:PassedToService': 'cloudformation.amazonaws.com' } },
            }),
            new iam.PolicyStatement({
              sid: 'ReadTheStagedAssets',
              actions: ['s3:GetObject*', 's3:GetBucket*', 's3:List*'],
              resources: [bucketArn, `${bucketArn}/*`],
            }),
            new iam.PolicyStatement({
              sid: 'ReadTheBootstrapVersion',
              actions: ['ssm:GetParameter', 'ssm:GetParameters'],
              resources: [
                this.formatArn({ service: 'ssm', resource: 'parameter', resourceName: `cdk-bootstrap/${qualifier}/version` }),
              ],
            }),
            new iam.PolicyStatement({ sid: 'WhoAmI', actions: ['sts:GetCallerIdentity'], resources: ['*'] }),
          ],
        }),
      },
    });

    Validations.of(this.executionRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AdministratorAccess]',
      reason:
        'The CloudFormation execution role of this one stack, as the CDK bootstrap gives its own by default: the stack ' +
        'creates IAM roles and policies, which is administrator power whatever the list of services. It is trusted by ' +
        'cloudformation.amazonaws.com alone, and only the deploy role of the named deployers may pass it.',
    });
    Validations.of(this.deployRole).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/AWSCloudFormationReadOnlyAccess]',
      reason:
        'Read-only CloudFormation access, as the CDK bootstrap gives its own deploy role: the CLI describes stacks, ' +
        'change sets and events while it deploys. Every change is limited to this stack in the inline policy.',
    });
    // cdk-nag names each wildcard of the deploy role's inline policy apart; each is bounded as said.
    const wildcards: [finding: string, reason: string][] = [
      [
        `Resource::arn:<AWS::Partition>:cloudformation:<AWS::Region>:<AWS::AccountId>:stack/${settings.stackName}/*`,
        'The stack ARN ends in an id CloudFormation gives it at creation: this names the one stack, whatever its id.',
      ],
      [
        `Resource::arn:<AWS::Partition>:s3:::cdk-${qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*`,
        'The objects of the bootstrap asset bucket the stack deploys from, named by content hash: CloudFormation reads ' +
          'the template and the function code from there with the caller’s credentials.',
      ],
      ...['s3:GetObject*', 's3:GetBucket*', 's3:List*'].map((action): [string, string] => [
        `Action::${action}`,
        'The read actions the CDK bootstrap gives its own deploy role on the same bucket, and on that bucket alone.',
      ]),
      ['Resource::*', 'sts:GetCallerIdentity takes no resource: the CLI asks who it is before it deploys.'],
    ];
    for (const [finding, reason] of wildcards) {
      Validations.of(this.deployRole).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason });
    }
  }
}
