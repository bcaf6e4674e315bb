/**
 * The spending budget's figures in the budget guide and the deploy guide's threat table, held to the code
 * that decides them: a key's default share (half of the hour and of the deployment's day, at the default
 * budget), the words a refusal at a share uses, the /v1/usage example (valid against its response schema),
 * and what the counter keeps through an outage (the 6-minute horizon, the 10,000 closings it keeps owed).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../infra/settings.js';
import {
  DEFAULT_PLAN_MS,
  defaultBackstop,
  deploymentDay,
  exhausted,
  KEY_SHARE,
  keyShare,
  PLAN_SAMPLES,
  windowsFor,
} from '../../../lib/budget/budget.js';
import { MAX_OWED, SETTLE_HORIZON_MS } from '../../../lib/budget/counter.js';
import { keyHourWindow } from '../../../lib/budget/windows.js';
import { loadConfig } from '../../../lib/config.js';
import { responseSchema } from '../../../lib/contract/usage.js';
import { fencedBlocks, readDocument } from '../../support/docs-blocks.js';

const GUIDE = 'docs/budget-and-caching.md';
const guide = readDocument(GUIDE);
const prose = guide.replace(/\s+/g, ' ');
const threats = readDocument('docs/deploy-and-operations.md');
const defaults = loadConfig({ API_KEYS: 'k', SERPAPI_API_KEY: 'ab'.repeat(32) });
const HOUR = defaults.SEARCHES_PER_HOUR;
const MONTH = defaults.SEARCHES_PER_MONTH;
// November has 30 days, the month the guide's examples are set in.
const NOVEMBER = Date.parse('2026-11-23T21:00:00Z');
const settings = { searchesPerHour: () => HOUR, searchesPerMonth: MONTH, failClosed: false, backstopPerHour: 1 };
const day = deploymentDay(settings, NOVEMBER);
const number = (n: number) => n.toLocaleString('en-US');
/** The text holds the phrase (a failure names the phrase, not the whole guide). */
const says = (text: string, phrase: string) => expect(text.includes(phrase), phrase).toBe(true);

describe('a key’s default share, as the guides state it', () => {
  it('is half of the hour and half of the deployment’s day, at the default budget', () => {
    expect(KEY_SHARE).toBe(0.5);
    says(prose, "half of the deployment's hour and half of its day");
    says(prose, `its share: half of the hour (${keyShare(HOUR)})`);
    says(prose, `(${keyShare(day)} of ${day} in a 30-day month)`);
    says(prose, `${number(MONTH)} in a 30-day month: ${day} a day, ${keyShare(day)} per key`);
  });

  it('quotes the refusal at a share as the budget words it', () => {
    const share = { ...keyHourWindow(NOVEMBER, 'team-a', keyShare(HOUR)), shareOf: HOUR };
    const words = exhausted(share, NOVEMBER).details.split('; it resets')[0] as string;
    says(prose, `a key's share says \`${words}\``);
  });

  it('gives the threat table’s figures for one client at its rate: its day’s share, its price, the times without shares', () => {
    const row = threats.split('\n').find((line) => line.startsWith('| One client searching at its full rate')) ?? '';
    const rate = 5;
    says(row, `half of the hour (${keyShare(HOUR)} of ${HOUR})`);
    says(
      row,
      `half of the deployment's day (${keyShare(day)} of the ${day} a day that ${number(MONTH)} a month allows in 30 days)`,
    );
    const price = 75 / MONTH;
    says(row, `${keyShare(day)} searches × $${price} = $${(keyShare(day) * price).toFixed(2)}`);
    says(row, `(${Math.ceil(keyShare(day) / rate)} s of its loop)`);
    says(row, `the whole hour in ${HOUR / rate} s, and the month in ${MONTH / HOUR} hours ($${MONTH * price})`);
    says(prose, `the whole default hour of ${HOUR} searches in ${HOUR / rate} seconds`);
    says(prose, `a month's ${number(MONTH)} in ${Math.round(MONTH / rate / 60)} minutes`);
  });

  it('gives the threat table’s figures for one client while the counter is down: a container’s allowance, times the containers', () => {
    const row = threats.split('\n').find((line) => line.startsWith('| One client searching at its full rate while')) ?? '';
    const allowance = defaultBackstop(HOUR);
    const price = 75 / MONTH;
    const dollars = (searches: number) => `$${(searches * price).toFixed(2)}`;
    says(row, `each container's own allowance, ${allowance} searches an hour`);
    const containers = DEFAULT_SETTINGS.reservedConcurrency ?? Number.NaN;
    const most = containers * allowance;
    says(
      row,
      `at most ${containers} reserved containers × ${allowance} = ${most} searches an hour (${dollars(most)} at $${price} a search)`,
    );
    // A search answered in about a second: a client at its rate keeps as many containers busy as its rate.
    const rate = DEFAULT_SETTINGS.keyRatePerSecond;
    says(
      row,
      `its ${rate} a second keep about ${rate} containers busy: ${rate * allowance} an hour (${dollars(rate * allowance)})`,
    );
  });
});

describe('the /v1/usage example', () => {
  it('is an answer the response schema takes, with a key’s hour and day', () => {
    const example = fencedBlocks(GUIDE, guide).find((block) => block.lang === 'json' && block.text.includes('"unsettled"'));
    const data = JSON.parse(example?.text ?? 'null').data;
    expect(responseSchema.safeParse(data).success).toBe(true);
    expect(data.client.this_hour).toMatchObject({ limit: keyShare(HOUR), share: true });
  });
});

describe('what the counter costs', () => {
  it('is one write per window a search counts in, at the price the guide quotes, as a share of a search', () => {
    const windows = windowsFor(settings, { client: 'team-a' }, NOVEMBER).length;
    expect(windows).toBe(4);
    const perSearch = (windows * 0.625) / 1e6;
    says(
      prose,
      `(3–${windows} per search: the hour, the month when capped, the key's hour and day; $${perSearch.toFixed(7)} at $0.625 per million for ${windows};`,
    );
    says(prose, `about ${((perSearch / (75 / MONTH)) * 100).toFixed(2)} % of the search it guards`);
  });
});

describe('a refusal by reservations still in flight', () => {
  it('waits as long as such a request usually takes, as the guide and the decision record say', () => {
    says(prose, `(the median of its last ${PLAN_SAMPLES}; ${DEFAULT_PLAN_MS / 1000} s before any)`);
    says(
      readDocument('docs/decisions.md').replace(/\s+/g, ' '),
      `the median of the container's last ${PLAN_SAMPLES}, ${DEFAULT_PLAN_MS / 1000} s before any`,
    );
  });
});

describe('what the counter keeps through an outage', () => {
  it('drops only a window sent to more than 6 minutes before, and keeps at most 10,000 closings', () => {
    expect(SETTLE_HORIZON_MS).toBe(6 * 60_000);
    says(prose, 'cannot be written exactly after 6 minutes');
    says(prose, `Past ${number(MAX_OWED)} closings owed (\`MAX_OWED\``);
  });
});
