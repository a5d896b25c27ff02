/**
 * The whole-archive model (src/site/model/site-model.ts) derived in slices of the thread's time, as the build derives it
 * (archiveModelInSlices): the same model as archiveModelOf's, one object per records array whichever is asked first,
 * with a classification update's target summarised and counted by its effective classification (DECISIONS 26).
 */
import { describe, expect, it } from 'vitest';
import type { SiteRecord } from '../../src/site/build/2-read-archive.ts';
import { archiveModelInSlices, archiveModelOf } from '../../src/site/model/site-model.ts';
import { summarySourceOf } from '../../src/site/model/summary-source.ts';
import { at, classificationUpdate, newGuardian } from '../helpers/guardian-records.ts';
import { echoWith, publishRecord, type TestRecord } from '../publish/helpers.ts';

const reviewer = newGuardian();
const target = at(1, 1, echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': 'unsolicited_independent' }));
const applied = at(2, 1, classificationUpdate(reviewer, {
  target: { id: target.id, sha256: target.sha256 },
  previous: { independence_class: 'unsolicited_independent' },
  proposed: { independence_class: 'self_reported' },
}));
// More records than one step summarises (2,000), so that the model is made over several steps.
const plain = Array.from({ length: 5_100 }, (_, i) => publishRecord(`2026/echo-2026-04-01-${String(i + 10).padStart(6, '0')}.json`, echoWith({})));
const archive = (): SiteRecord[] => [target, applied, ...plain] as TestRecord[] as unknown as SiteRecord[];

describe('archiveModelInSlices', () => {
  it("is archiveModelOf's model, the target counted by its effective classification", async () => {
    const sliced = await archiveModelInSlices(archive());
    const whole = archiveModelOf(archive());
    expect(sliced).not.toBe(whole); // two arrays: two derivations, compared
    expect(sliced).toEqual(whole);
    expect(sliced.summaries).toHaveLength(plain.length + 2);
    expect(sliced.summaries.find((s) => s.id === target.id)!.facets.independence_class).toBe('self_reported');
  });

  it('is one model per records array, whichever is asked first', async () => {
    const records = archive();
    const sliced = await archiveModelInSlices(records);
    expect(archiveModelOf(records)).toBe(sliced);
    const other = archive();
    const whole = archiveModelOf(other);
    expect(await archiveModelInSlices(other)).toBe(whole);
    // Asked for while it is being made in slices: the first one made is the one both give.
    const third = archive();
    const coming = archiveModelInSlices(third);
    const meanwhile = archiveModelOf(third);
    expect(await coming).toBe(meanwhile);
  });

  it("names each summary by its record file's path and hash, but the one a classification update's view changed", () => {
    const model = archiveModelOf(archive());
    for (const summary of model.summaries) {
      const record = model.byId.get(summary.id)!;
      if (summary.id === target.id) expect(summarySourceOf(summary)).toBeUndefined();
      else expect(summarySourceOf(summary)).toBe(`record ${record.sha256} ${record.path}`);
    }
  });
});
