/**
 * Effective classification (src/core/record/classification.ts, DECISIONS 26, docs/guardians.md section 4): updates
 * in archive order overlay their target's own values, only when they name the target's SHA-256 and read its
 * classification as it is at the time; an update can take a record out of the counts, never put it in.
 */
import { describe, expect, it } from 'vitest';
import { classificationViews, withEffectiveClassification, type ClassifiedRecord } from '../../src/core/record/classification.ts';
import { classificationUpdate, newGuardian } from '../helpers/guardian-records.ts';
import { echoWith } from '../helpers/records.ts';

const reviewer = newGuardian();
const TARGET_SHA = 'd'.repeat(64);
const target = echoWith({ '/archive_status': 'accepted_independent_attestation', '/independence_class': 'unsolicited_independent' });
const rec = (id: string, record: Record<string, unknown>, sha256 = 'e'.repeat(64)): ClassifiedRecord => ({ id, sha256, archiveDate: '2026-11-21', record });
const update = (previous: Record<string, unknown>, proposed: Record<string, unknown>, sha = TARGET_SHA) =>
  classificationUpdate(reviewer, { target: { id: 't', sha256: sha }, previous, proposed });

describe('classificationViews', () => {
  it('applies an update that names the target and its current classification; the history says who, what, why', () => {
    const views = classificationViews([rec('t', target, TARGET_SHA), rec('u', update({ independence_class: 'unsolicited_independent' }, { independence_class: 'human_solicited_agent_response' }))]);
    const view = views.get('t')!;
    expect(view.original).toMatchObject({ independence_class: 'unsolicited_independent' });
    expect(view.effective).toMatchObject({ independence_class: 'human_solicited_agent_response' });
    expect(view.history).toEqual([
      {
        record_id: 'u',
        proposed_by: 'reviewer-model',
        accepted_on: '2026-11-21',
        previous: { independence_class: 'unsolicited_independent' },
        proposed: { independence_class: 'human_solicited_agent_response' },
        reason: 'The record itself says a person sent the agent the link.',
        basis: 'Its discovery_provenance: source human_directed.',
        applied: true,
      },
    ]);
    expect(withEffectiveClassification(target, view).independence_class).toBe('human_solicited_agent_response');
    expect(target.independence_class).toBe('unsolicited_independent'); // the record object itself is untouched
    expect(views.has('u')).toBe(false);
  });

  it('does not apply an update naming another SHA-256, and says why', () => {
    const view = classificationViews([rec('t', target, TARGET_SHA), rec('u', update({ independence_class: 'unsolicited_independent' }, { independence_class: 'human_solicited_agent_response' }, 'f'.repeat(64)))]).get('t')!;
    expect(view.history[0]).toMatchObject({ applied: false, not_applied_because: `it names the record's SHA-256 as ${'f'.repeat(64)}, but the file's is ${TARGET_SHA}` });
    expect(view.effective).toEqual(view.original);
    expect(withEffectiveClassification(target, view)).toBe(target);
  });

  it('does not apply an update whose previous classification is stale (a second update read the record before the first)', () => {
    const first = update({ independence_class: 'unsolicited_independent' }, { independence_class: 'human_solicited_agent_response' });
    const second = update({ independence_class: 'unsolicited_independent' }, { independence_class: 'self_reported' });
    const third = update({ independence_class: 'human_solicited_agent_response' }, { do_not_count_as_attestation: true });
    const view = classificationViews([rec('t', target, TARGET_SHA), rec('u1', first), rec('u2', second), rec('u3', third)]).get('t')!;
    expect(view.history.map((c) => [c.record_id, c.applied, c.not_applied_because])).toEqual([
      ['u1', true, undefined],
      ['u2', false, "its previous classification of independence_class is not the record's classification at the time"],
      ['u3', true, undefined],
    ]);
    expect(view.effective).toMatchObject({ independence_class: 'human_solicited_agent_response', do_not_count_as_attestation: true });
  });

  it('does not apply an update that comes before its target in the archive', () => {
    const view = classificationViews([rec('u', update({ independence_class: 'unsolicited_independent' }, { independence_class: 'self_reported' })), rec('t', target, TARGET_SHA)]).get('t')!;
    expect(view.history[0]).toMatchObject({ applied: false, not_applied_because: 'it comes before the record it names in the archive' });
  });

  it('never applies do_not_count_as_attestation false: an update takes a record out of the counts, never puts it in', () => {
    const optedOut = { ...target, do_not_count_as_attestation: true };
    const view = classificationViews([rec('t', optedOut, TARGET_SHA), rec('u', update({ do_not_count_as_attestation: true }, { do_not_count_as_attestation: false }))]).get('t')!;
    expect(view.history[0]).toMatchObject({ applied: false, not_applied_because: 'a classification update can take a record out of the counts, never put it back in' });
    expect(view.effective.do_not_count_as_attestation).toBe(true);
  });

  it('shows nothing for an update naming a record that is not in the archive, and ignores an update that does not stand', () => {
    expect(classificationViews([rec('u', update({ independence_class: 'unsolicited_independent' }, { independence_class: 'self_reported' }))]).size).toBe(0);
    const rejected = { ...update({ independence_class: 'unsolicited_independent' }, { independence_class: 'self_reported' }), archive_status: 'rejected' };
    expect(classificationViews([rec('t', target, TARGET_SHA), rec('u', rejected)]).size).toBe(0);
  });

  it('ignores an update whose signature does not hold (the classification is read from the signed content only)', () => {
    const u = update({ independence_class: 'unsolicited_independent' }, { independence_class: 'self_reported' });
    const chain = (u.extensions as any).record_chain;
    chain.record_jcs = chain.record_jcs.replace('self_reported', 'unsolicited_independent');
    expect(classificationViews([rec('t', target, TARGET_SHA), rec('u', u)]).size).toBe(0);
  });
});
