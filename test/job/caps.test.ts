import { defaultRepoConfig, RepoConfigSchema } from '../../src/config/repo-config.js';
import { capReachedSentence, reserveOverCapSentence } from '../../src/job/cap-sentence.js';
import { capWindow, utcMinute } from '../../src/job/cap-window.js';
import { jobCaps } from '../../src/job/caps.js';
import { jobRequest } from '../queue/job-requests.js';

describe('capWindow: the UTC day and calendar month of the queue clock', () => {
  it.each([
    ['mid-day', Date.UTC(2026, 11, 1, 13, 5), Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 2)],
    ['the first millisecond of a day is in it', Date.UTC(2026, 11, 2), Date.UTC(2026, 11, 2), Date.UTC(2026, 11, 3)],
    ['the last millisecond of a day is in it', Date.UTC(2026, 11, 2) - 1, Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 2)],
    ['new year', Date.UTC(2026, 11, 31, 23, 59), Date.UTC(2026, 11, 31), Date.UTC(2027, 0, 1)],
  ])('day: %s', (_, now, since, resetsAt) => {
    expect(capWindow('day', now)).toEqual({ since, resetsAt });
  });

  it.each([
    ['December into January', Date.UTC(2026, 11, 31, 23, 59), Date.UTC(2026, 11, 1), Date.UTC(2027, 0, 1)],
    ['February of a leap year', Date.UTC(2028, 1, 29, 12), Date.UTC(2028, 1, 1), Date.UTC(2028, 2, 1)],
    ['the first instant of a month', Date.UTC(2027, 3, 1), Date.UTC(2027, 3, 1), Date.UTC(2027, 4, 1)],
  ])('month: %s', (_, now, since, resetsAt) => {
    expect(capWindow('month', now)).toEqual({ since, resetsAt });
  });

  it('names a reset to the minute, in UTC', () => {
    expect(utcMinute(Date.UTC(2026, 11, 2))).toBe('2026-12-02 00:00 UTC');
  });
});

describe('jobCaps: the caps a job runs under and what it reserves', () => {
  const NOW = Date.UTC(2026, 11, 1, 22);
  const request = jobRequest(5, 1);
  const config = (yaml: object) => RepoConfigSchema.parse(yaml);

  it('no cap set anywhere: nothing to reserve', () => {
    expect(jobCaps({ jobReserveUsd: 1 }, defaultRepoConfig(), request, NOW)).toBeNull();
  });

  it("the operator's caps, monthly first, with the default reservation", () => {
    const planned = jobCaps({ repoDailyUsd: 5, repoMonthlyUsd: 50, installationMonthlyUsd: 200, jobReserveUsd: 1 }, defaultRepoConfig(), request, NOW)!;
    expect(planned).toEqual({
      usd: 1,
      source: 'reserve',
      caps: [
        { scope: 'installation', key: '7', window: 'month', limitUsd: 200, since: Date.UTC(2026, 11, 1), resetsAt: Date.UTC(2027, 0, 1) },
        { scope: 'repo', key: '5', window: 'month', limitUsd: 50, since: Date.UTC(2026, 11, 1), resetsAt: Date.UTC(2027, 0, 1) },
        { scope: 'repo', key: '5', window: 'day', limitUsd: 5, since: Date.UTC(2026, 11, 1), resetsAt: Date.UTC(2026, 11, 2) },
      ],
    });
  });

  it("a repository lowers the operator's caps, never raises them, and may set its own", () => {
    const lowered = jobCaps({ repoDailyUsd: 5, jobReserveUsd: 1 }, config({ caps: { daily_usd: 2, monthly_usd: 30 } }), request, NOW)!;
    expect(lowered.caps.map((c) => [c.window, c.limitUsd])).toEqual([['month', 30], ['day', 2]]);
    const raised = jobCaps({ repoDailyUsd: 5, jobReserveUsd: 1 }, config({ caps: { daily_usd: 500 } }), request, NOW)!;
    expect(raised.caps.map((c) => [c.window, c.limitUsd])).toEqual([['day', 5]]);
    expect(jobCaps({ jobReserveUsd: 1 }, config({ caps: { monthly_usd: 10 } }), request, NOW)!.caps).toHaveLength(1);
  });

  it('reserves max_cost_usd when set; else the default lowered to the smallest cap', () => {
    expect(jobCaps({ repoDailyUsd: 5, jobReserveUsd: 1 }, config({ max_cost_usd: 3 }), request, NOW)).toMatchObject({ usd: 3, source: 'max_cost_usd' });
    expect(jobCaps({ jobReserveUsd: 1 }, config({ caps: { daily_usd: 0.4 } }), request, NOW)).toMatchObject({ usd: 0.4, source: 'reserve' });
  });
});

describe('the sentences a person reads', () => {
  const daily = { scope: 'repo' as const, key: '5', window: 'day' as const, limitUsd: 5, since: 0, resetsAt: Date.UTC(2026, 11, 2) };
  const monthly = { scope: 'installation' as const, key: '7', window: 'month' as const, limitUsd: 200, since: 0, resetsAt: Date.UTC(2027, 0, 1) };

  it('a cap reached: the cap, the spend in its window and the reset', () => {
    expect(capReachedSentence({ cap: daily, spentUsd: 5.12, reservedUsd: 0, resetsAt: daily.resetsAt }, 1)).toBe(
      "the repository's daily cap of $5.00 is reached (it resets at 2026-12-02 00:00 UTC): $5.12 spent today",
    );
  });

  it('a cap with room, but not for this job, says what running jobs hold and what this one reserves', () => {
    expect(capReachedSentence({ cap: monthly, spentUsd: 150, reservedUsd: 40, resetsAt: monthly.resetsAt }, 20)).toBe(
      "the installation's monthly cap of $200.00 has no room for this job (it resets at 2027-01-01 00:00 UTC): $150.00 spent this month ($40.00 more held by running jobs), and this job reserves $20.00",
    );
  });

  it('a reservation over a cap can never start', () => {
    expect(reserveOverCapSentence(daily, 10, 'max_cost_usd')).toBe(
      "`max_cost_usd` ($10.00) is more than the repository's daily cap of $5.00, so this job could never start: lower `max_cost_usd` or raise the cap",
    );
  });
});
