/**
 * What a copy of the stack reserves of the account's Lambda concurrency, checked at synth. Reserved
 * concurrency is taken from one pool per account and region, of which Lambda keeps 100 unreserved; a deploy
 * that would reserve more fails at CloudFormation, after the first functions were created, and a second copy
 * (staging) beside the first is the usual way to get there. So the synth adds up what every function of the
 * stack reserves (every one in the construct tree, not only the routes table's: the authorizer, the MCP
 * server and any function added later count alike) and refuses a sum over this copy's share
 * (`reservedConcurrencyPerCopy`) or over what the stated account quota (`accountConcurrency`) lets anyone
 * reserve (docs/decisions.md §21).
 */
import type { Stack } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { StackSettings } from './settings.js';

/** What Lambda keeps unreserved in every account and region, whatever its quota. */
export const UNRESERVED_CONCURRENCY = 100;

/** Every function of the stack, by construct path, with what it reserves (0 for none). */
export function reservedConcurrencyOf(stack: Stack): { path: string; reserved: number }[] {
  return stack.node
    .findAll()
    .filter((construct): construct is CfnFunction => construct instanceof CfnFunction)
    .map((fn) => ({ path: fn.node.path, reserved: Number(fn.reservedConcurrentExecutions ?? 0) }));
}

/** Why the stack reserves too much, or undefined when it fits. */
export function reservedConcurrencyProblem(
  stack: Stack,
  settings: Pick<StackSettings, 'reservedConcurrencyPerCopy' | 'accountConcurrency'>,
): string | undefined {
  const functions = reservedConcurrencyOf(stack);
  const total = functions.reduce((sum, fn) => sum + fn.reserved, 0);
  const reservable = settings.accountConcurrency - UNRESERVED_CONCURRENCY;
  const most = Math.min(settings.reservedConcurrencyPerCopy, reservable);
  if (total <= most) return undefined;
  const which =
    most === settings.reservedConcurrencyPerCopy
      ? `this copy's share, reservedConcurrencyPerCopy ${settings.reservedConcurrencyPerCopy}`
      : `the ${reservable} an account with a quota of ${settings.accountConcurrency} (accountConcurrency) may reserve: Lambda keeps ${UNRESERVED_CONCURRENCY} unreserved`;
  return (
    `reservedConcurrency: the stack's ${functions.length} functions would reserve ${total} instances together, over ${which}. ` +
    'Give a smaller -c reservedConcurrency=<N> (or none), or, if the account has room (its other copies and functions ' +
    'included), raise -c reservedConcurrencyPerCopy and state the quota with -c accountConcurrency'
  );
}
