/**
 * What the stack knows of the deployment's pace (lib/pace/): one table where every container takes its
 * turns for an upstream (one item per upstream, `pk` its pace key), so that all of them together keep the
 * upstream's published rate. A function is granted the items of the paces its route keeps
 * (lib/routes.ts, `needs.paces`) and nothing else of the table.
 */
import { PACE_ITEM_KEYS } from '../lib/pace/dynamo-store.js';

/** The pace table's key and TTL attributes: the names lib/pace/dynamo-store.ts writes. */
export const PACE_TABLE_KEYS = PACE_ITEM_KEYS;

/**
 * What a function that keeps a pace may do on the table: a consistent `GetItem` (the state) and a
 * `PutItem` conditional on the version read (the next state). No update, delete, query or scan.
 * test/infra/iam-matches-code.test.ts runs the real pace against a table and fails when it uses an action
 * this list lacks, or a key the grant below does not name.
 */
export const PACE_TABLE_ACTIONS = ['dynamodb:GetItem', 'dynamodb:PutItem'] as const;

/** The grant's condition: every key a call names is one of the route's pace keys (IAM's dynamodb:LeadingKeys). */
export function paceKeyCondition(keys: readonly string[]) {
  return { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [...keys] } };
}
