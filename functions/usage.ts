/**
 * POST /v1/usage: where the search budget stands, for the calling client, without the AWS console. It
 * makes no paid call: the counter is read, and the plan's numbers are the Account API's last answer.
 */
import { planNumbers } from '../lib/budget/account.js';
import { budgetUsage } from '../lib/budget/deployment.js';
import { api } from '../lib/middleware/index.js';
import { body } from '../lib/schema.js';

// No fields of its own. It takes `no_cache` like every body, and needs none: the counter is always read afresh.
export const requestSchema = body({});

export const handler = api({ body: requestSchema }).handler(async ({ client: { name, ...limits } }) => {
  const usage = await budgetUsage({ client: name, ...limits });
  const data = { ...usage, plan: planNumbers() ?? null };
  return { data, message: `${data.hour.left} searches left this hour` };
});
