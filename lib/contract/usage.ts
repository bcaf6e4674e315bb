/** The `data` of a successful POST /v1/usage: where the search budget stands (README, "Spending budget"). */
import * as z from 'zod/mini';

const windowSchema = z.strictObject({
  limit: z.int().check(z.describe('Most paid searches this window allows')),
  used: z.int().check(z.describe('Paid searches counted in this window so far (answers from the cache are free)')),
  left: z.int().check(z.describe('Searches left in this window')),
  resets_at: z.string().check(z.describe('When the window resets (ISO 8601, UTC)')),
});

/** One of the calling key's own windows: its day or its hour. */
function keyWindowSchema(unit: 'day' | 'hour', when: string) {
  return z.strictObject({
    limit: z
      .nullable(z.int())
      .check(
        z.describe(
          `The key's limit per ${unit}: its own, or its default share of the deployment's when several keys share it (\`share\`); null: none (only the deployment's budget)`,
        ),
      ),
    share: z
      .boolean()
      .check(
        z.describe(
          `true when the limit is the key's default share of the deployment's ${unit} (the key's entry sets no limit of its own)`,
        ),
      ),
    used: z.int().check(z.describe(`Paid searches this key caused ${when} (UTC)`)),
    left: z.nullable(z.int()).check(z.describe(`Searches left ${when} under the key’s limit; null: no limit`)),
    resets_at: z.string().check(z.describe(`When the ${unit} resets (ISO 8601, UTC)`)),
  });
}

export const responseSchema = z.strictObject({
  hour: windowSchema.check(z.describe("The deployment's searches this hour (UTC), every client together")),
  month: z.nullable(windowSchema).check(z.describe("The deployment's searches this calendar month (UTC); null: no monthly cap")),
  client: z.strictObject({
    name: z.string().check(z.describe("The calling key's name")),
    today: keyWindowSchema('day', 'today'),
    this_hour: keyWindowSchema('hour', 'this hour'),
  }),
  unsettled: z
    .strictObject({
      searches_not_counted: z
        .int()
        .check(
          z.describe(
            'Searches this container made while the counter could not be reached, not written to it yet: the counts above are low by them',
          ),
        ),
      searches_not_given_back: z
        .int()
        .check(
          z.describe(
            'Searches this container reserved and did not use (or the provider did not bill), not given back yet: the counts above are high by them',
          ),
        ),
    })
    .check(
      z.describe(
        'What the container that answered owes the counter (each writes its own as soon as the counter answers, and before answering this); 0 and 0 when the counts are exact',
      ),
    ),
  plan: z
    .nullable(
      z.strictObject({
        plan_name: z.nullable(z.string()),
        searches_per_month: z.nullable(z.int()),
        plan_searches_left: z.nullable(z.int()),
        this_month_usage: z.nullable(z.int()),
        this_hour_searches: z.nullable(z.int().check(z.describe('Searches in the current hour'))),
        last_hour_searches: z.nullable(z.int().check(z.describe('Searches in the last 60 minutes'))),
        account_rate_limit_per_hour: z.nullable(z.int()),
        read_at: z.string().check(z.describe('When the search provider said so (ISO 8601)')),
      }),
    )
    .check(
      z.describe(
        "The search provider's own account numbers, as last read from its free Account API (kept a few minutes); null when not read yet",
      ),
    ),
});

export type UsageData = z.output<typeof responseSchema>;
