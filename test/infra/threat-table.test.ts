/**
 * The deploy guide's "On the open internet" section, held to its sources: the settings it quotes are the
 * stack's defaults, and every sum in its threat table is done right (each product, each total, each
 * "if billed" figure), so that a changed price or rate cannot leave a stale figure behind.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AUTHORIZER_CACHE_TTL } from '../../infra/gateway-keys.js';
import { DEFAULT_SETTINGS } from '../../infra/settings.js';

const guide = readFileSync(new URL('../../docs/deploy-and-operations.md', import.meta.url), 'utf8');
const section = guide.slice(guide.indexOf('### On the open internet'), guide.indexOf('### Settings (CDK context)'));
const prose = section.replace(/\s+/g, ' ');
const rows = section
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Attack') && !line.startsWith('| ---'));
const costs = rows.map((row) => row.split(' | ').at(-1)?.replace(/ \|$/, '') ?? '');

const number = (text: string) => Number(text.replace(/,/g, ''));
/** Equal to the cent, allowing for a figure rounded from rounded inputs. */
const close = (a: number, b: number) => Math.abs(a - b) <= 0.011 + Math.abs(b) * 0.003;

describe('the threat table', () => {
  it('has the rows the issues ask for: keyless from 1, 50 and 500 addresses, made-up keys new or repeated, one client at 10×, a NAT', () => {
    expect(rows.map((row) => row.split(' | ')[0])).toEqual([
      '| No key, 1 address, 10,000 a second',
      '| No key, 50 addresses, 1 a second each (each under its rate)',
      '| No key, 500 addresses, 1 a second each',
      '| Made-up keys of the right shape, 1 address, 1,000 a second (each new, so never a cached answer)',
      "| One made-up key repeated, 1 address, 1,000 a second (refused from the authorizer's cached answer, never invoking it)",
      '| One client at 10 × its rate (50 a second on the default 5)',
      '| One client searching at its full rate (5 a second, every request a new search), the deployment shared by several keys',
      '| One client searching at its full rate while the budget counter is down (failing open, the default)',
      '| Clients behind one NAT, each within its rate, up to 100 a second together',
    ]);
  });

  it('lets through what the WAF rules let through: the keyed per-address limit for new keys, the per-key limit for one key repeated', () => {
    const perSecond = (per5Minutes: number) => per5Minutes / 300;
    const keyed = perSecond(DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp);
    const perKey = perSecond(DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey);
    const through = (per5Minutes: number) =>
      `lets ${perSecond(per5Minutes)} a second through (${per5Minutes.toLocaleString('en-US')} in 5 minutes)`;
    expect(rows[3]).toContain(through(DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp));
    expect(rows[4]).toContain(through(DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey));
    // A day of what got through: every new key is one authorizer call and one access log line.
    const day = (rate: number) => `${(rate * 86_400) / 1e6} M`;
    expect(costs[3]).toContain(`authorizer ${day(keyed)} × $0.2067/M`);
    expect(costs[3]).toContain(`logs ${day(keyed)} × 400 B`);
    // The repeated key: API Gateway answers from the authorizer's cached answer, a log line each.
    expect(costs[4]).toContain(`logs ${day(perKey)} × 400 B`);
    expect(costs[4]).not.toContain('authorizer');
    // The client over its rate: what passes WAF's per-key rule and its plan refuses.
    expect(costs[5]).toContain(`logs ${day(perKey - DEFAULT_SETTINGS.keyRatePerSecond)} × 400 B`);
    // The account's 10,000 a second takes this many addresses making keys up.
    expect(prose).toContain(`it takes ${10_000 / keyed} such addresses to reach the account's 10,000 a second`);
  });

  it('multiplies right: millions of requests × a price per million, requests × 400 bytes, gigabytes × $0.50', () => {
    let checked = 0;
    for (const cost of costs) {
      for (const [, count, price, result] of cost.matchAll(/([\d.]+) M × \$([\d.]+)\/M = (?:\*\*)?\$([\d.,]+)/g)) {
        expect(close(number(count as string) * number(price as string), number(result as string)), `${count} × ${price}`).toBe(
          true,
        );
        checked += 1;
      }
      for (const [, count, gigabytes, dollars] of cost.matchAll(/([\d.]+) M × 400 B = ([\d.]+) GB × \$0\.50 = \$([\d.]+)/g)) {
        expect(close(number(count as string) * 0.4, number(gigabytes as string)), `${count} M lines`).toBe(true);
        expect(close(number(count as string) * 0.4 * 0.5, number(dollars as string)), `${gigabytes} GB`).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10);
  });

  it('adds the parts of each total, and what API Gateway would add at $3.50 per million if it billed the refusals', () => {
    let totals = 0;
    for (const cost of costs) {
      const total = /: \*\*\$([\d.,]+)\*\*/.exec(cost);
      if (!total) continue;
      const before = cost.slice(0, total.index);
      const parts = [...before.matchAll(/= \$([\d.,]+)/g)].map((m) => number(m[1] as string));
      expect(
        close(
          parts.reduce((a, b) => a + b, 0),
          number(total[1] as string),
        ),
        cost,
      ).toBe(true);
      totals += 1;
      const billed = /\(\+ \$([\d.,]+) if billed\)/.exec(cost);
      if (billed) {
        // The requests refused at the gateway: those the access log counts, in millions.
        const refused = number(/logs ([\d.]+) M/.exec(cost)?.[1] ?? 'NaN');
        expect(close(refused * 3.5, number(billed[1] as string)), cost).toBe(true);
      }
    }
    expect(totals).toBe(5);
  });

  it('converts rates to a day’s requests: R a second × 86,400', () => {
    expect(costs[0]).toContain(`${(10_000 * 86_400) / 1e6} M`);
    expect(costs[1]).toContain(`${(50 * 86_400) / 1e6} M`);
    expect(costs[2]).toContain(`${(500 * 86_400) / 1e6} M`);
    expect(costs[3]).toContain(`${(1_000 * 86_400) / 1e6} M`);
    expect(costs[4]).toContain(`${(1_000 * 86_400) / 1e6} M`);
    expect(costs[5]).toContain(`${(50 * 86_400) / 1e6} M`);
  });
});

describe('the settings the section quotes', () => {
  it('are the stack’s defaults', () => {
    expect(prose).toContain(`\`wafRequestsPer5MinutesPerIp\` (${DEFAULT_SETTINGS.wafRequestsPer5MinutesPerIp})`);
    expect(prose).toContain(
      `\`wafKeyedRequestsPer5MinutesPerIp\` (${DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp.toLocaleString('en-US')}, ${(DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp / 300).toLocaleString('en-US')} a second)`,
    );
    expect(prose).toContain(`\`keyRatePerSecond\` ${DEFAULT_SETTINGS.keyRatePerSecond}`);
    expect(prose).toContain(`\`keyBurst\` ${DEFAULT_SETTINGS.keyBurst}`);
    expect(prose).toContain(`the authorizer's ${DEFAULT_SETTINGS.reservedConcurrency} reserved instances`);
    expect(prose).toContain(`keeps the answer for that token ${AUTHORIZER_CACHE_TTL.toMinutes()} minutes`);
    expect(prose).toContain(
      `\`wafRequestsPer5MinutesPerKey\` (${DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey.toLocaleString('en-US')}, ${DEFAULT_SETTINGS.wafRequestsPer5MinutesPerKey / 300} a second)`,
    );
    // The clients one NAT holds at their full default rate within the keyed per-address rule.
    const nat = DEFAULT_SETTINGS.wafKeyedRequestsPer5MinutesPerIp / 300 / DEFAULT_SETTINGS.keyRatePerSecond;
    expect(prose).toContain(
      `${nat} clients at their full default rate (${nat} × ${DEFAULT_SETTINGS.keyRatePerSecond} = ${nat * DEFAULT_SETTINGS.keyRatePerSecond} a second)`,
    );
  });
});
