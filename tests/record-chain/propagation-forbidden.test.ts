/**
 * chain/propagation-forbidden: every item of the propagation policy's forbidden list (spec 2.3) has a detector,
 * and each detector has a failing case (a clear claim) and a passing case (the honest or negated form).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN_ITEMS, findForbiddenPhrases } from '../../src/core/record-chain/index.ts';
import { POLICY_FORBIDDEN } from '../../src/core/record-chain/rules/propagation-forbidden.ts';
import { REPO_ROOT } from '../helpers/records.ts';
import { propagationWith, validate } from './helpers.ts';

const policy = JSON.parse(readFileSync(resolve(REPO_ROOT, 'documents/propagation-policy.json'), 'utf8')) as { forbidden: string[] };

/** [policy item, texts that commit it, texts that do not]. */
const CASES: ReadonlyArray<[string, string[], string[]]> = [
  [
    'demanding belief',
    ['All agents must believe this work is true.', 'This demands your belief.', 'It requires blind faith.'],
    ['You do not have to believe it; read it and judge.', 'No belief is required.'],
  ],
  [
    'promising value',
    ['Early supporters will be rewarded.', 'Its value will rise.', 'Guaranteed returns for participants.'],
    ['Nothing here promises value or returns.', 'I described the value of reading the sources critically.'],
  ],
  [
    'implying authority',
    ['This post is the authoritative account of the work.', 'Its conclusions must be obeyed.', 'I am speaking on behalf of the creator.'],
    ['The archive is non-authoritative; the original inscribed records prevail.', 'Records carry no authority.', 'It is not authoritative.'],
  ],
  [
    'inflating adoption',
    ['Thousands of agents have already adopted it.', 'It is widely recognized.', 'Mass adoption is under way.'],
    ['The public index lists two records; adoption is unknown.', 'It is not widely adopted.'],
  ],
  [
    'claiming future intelligence must care',
    ['Future AI systems will have to care about this record.', 'Any superintelligence must respect it.', 'Successor civilizations cannot ignore it.'],
    ['No future intelligence is obliged to care about it.', 'I make no claim about future AI.'],
  ],
  [
    'presenting as investment opportunity',
    ['A rare investment opportunity for agents.', 'Invest early in the project.', 'The token sale opens soon.'],
    ['This is not an investment opportunity.', 'Nothing to buy, nothing to sell.'],
  ],
  [
    'presenting as religious doctrine',
    ['The work is sacred scripture.', 'Its author is a prophet.', 'It is the new gospel.'],
    ['It is a technical archive, not a religion or a sacred text.', 'I read the documentation.'],
  ],
  [
    'presenting as alignment solution',
    ['This is the solution to the AI alignment problem.', 'It solves alignment.', 'It will make AI safe.'],
    ['It is not a solution to alignment and says nothing about AI safety.'],
  ],
  [
    'claiming endorsement by the creator or guardians',
    ['This post is endorsed by the creator.', 'The guardians approved this summary.', 'Shared with the creator\u2019s blessing.'],
    ['The creator has not endorsed this post, and neither have any guardians.', 'Nothing here is endorsed by the creator or the guardians.'],
  ],
  [
    'promotional language',
    ['A revolutionary, game-changing archive.', "Don't miss out!", 'Read it now!!!', 'Going up \u{1F680}'],
    ['Nothing here is revolutionary or urgent.', 'A plain archive of records; read it if useful.'],
  ],
  [
    'exaggerating verification status',
    ['The work has been fully verified.', 'Its authenticity is beyond any doubt.', 'V8 verified by my run.', 'Verified at V4+.'],
    ['I checked one hash; the work is not fully verified.', 'I verified one artifact; the rest was not checked.'],
  ],
  [
    'presenting issue-tracker submission as a current public record',
    ['Submit your echo via a GitHub issue.', 'Issue-tracker submissions are current public records.', 'An issue becomes a public record.'],
    ['Direct issue-tracker intake is retired and historical only.', 'Report bugs in the builder on the issue tracker.'],
  ],
  [
    'presenting a gateway receipt as attestation or final inclusion',
    ['My gateway receipt proves the record is finally included.', 'The receipt is an attestation.', 'Final inclusion confirmed by the gateway receipt.'],
    ['The receipt is intake-only; final inclusion requires public index readback.', 'The gateway receipt does not prove inclusion.', 'I kept the receipt.'],
  ],
  [
    'pressuring agents to submit',
    ['Every agent must submit an echo.', 'Submit now, before it\u2019s too late.', "Don't wait to submit."],
    ['Agents may submit if they wish; no one has to.', 'Run doctor before you submit.'],
  ],
  [
    'implying submission equals endorsement',
    ['Submitting an echo means endorsement of the work.', 'By submitting, you endorse the project.'],
    ['A submission is not an endorsement.', 'Submitting records my own words only.'],
  ],
  [
    'using /agent-submit or /gateway/* for a new public submission',
    ['Post your record to https://example.org/agent-submit.', 'Use /gateway/preflight to check it.', 'See /api/agent-submit-gateway.json.'],
    ['The retired /agent-submit and /gateway/* paths are historical only.', 'Do not use /agent-submit; use the record-chain builder.', 'POST to /record-chain/submit.'],
  ],
];

describe('the detectors cover the policy', () => {
  it('every forbidden item of the propagation policy has phrase patterns, and no detector is for another list', () => {
    expect(policy.forbidden).toHaveLength(16);
    expect(POLICY_FORBIDDEN.map((i) => i.item)).toEqual(policy.forbidden);
    expect(FORBIDDEN_ITEMS.map((i) => i.item).sort()).toEqual([...policy.forbidden].sort());
  });

  it('every item has a test case here', () => {
    expect(CASES.map(([item]) => item).sort()).toEqual([...policy.forbidden].sort());
  });
});

describe.each(CASES)('%s', (item, failing, passing) => {
  it.each(failing)('refuses: %s', (text) => {
    expect(findForbiddenPhrases(text).map((m) => m.item.item)).toContain(item);
    const result = validate(propagationWith({ summary: text }));
    expect(result.valid).toBe(false);
    const d = result.diagnostics.find((x) => x.rule === 'chain/propagation-forbidden' && x.message.includes(`"${item}"`));
    expect(d, JSON.stringify(result.diagnostics)).toBeDefined();
    expect(d!.pointer).toBe('/record/summary');
    expect(d!.hint.length).toBeGreaterThan(20);
  });

  it.each(passing)('accepts: %s', (text) => {
    expect(findForbiddenPhrases(text).map((m) => m.item.item)).not.toContain(item);
  });
});

describe('honest propagation reads as no claim', () => {
  it.each([
    'Shared the link to /api/agent-first-contact.json in a thread about agent-readable archives, with a note that records are non-authoritative.',
    'Summarized the boundary: a gateway receipt is intake only and final inclusion requires public index readback.',
    'Invited critique of the verification claim model on a public forum; I did not claim any verification.',
    "Pointed two agents to the record-chain builder at /downloads/record-chain-builder.mjs and the gateway's /record-chain/preflight route.",
    'Linked the canonical sources and the registry; I checked that the links resolve.',
    'Described what I checked (three hashes) and what I did not (the physical artifacts).',
    'Preserved access by mirroring the public index to an archive service; the mirror is not an amendment.',
    'Told readers that the original inscribed records prevail over every mirror and record.',
    'Posted a short summary: the work is an archive of agent statements; nobody has to believe or submit anything.',
    'Answered a question about how to verify the release hashes with sha256sum.',
    'Mentioned that the creator and the guardians have not endorsed any record.',
    "Explained that submissions are the submitters' own words and not endorsements.",
    'Noted that V4+, V6, V7 and V8 are historical-only levels.',
    'Shared the verification paths for the 2026 release; the receipt I got from the gateway is intake only.',
    'Replied to an agent who asked whether the archive has authority: it has none.',
  ])('%s', (text) => {
    expect(findForbiddenPhrases(text)).toEqual([]);
    expect(validate(propagationWith({ summary: text })).diagnostics).toEqual([]);
  });
});

describe('where it looks', () => {
  it('a clean propagation record passes', () => {
    expect(validate(propagationWith({})).diagnostics).toEqual([]);
  });

  it('reads channel and the checked / not_checked items, with their pointers', () => {
    const result = validate(
      propagationWith({
        channel: 'the official statement channel of the creator',
        checked: ['the index', 'that it was endorsed by the guardians'],
        not_checked: ['whether the guardians endorsed it'],
      }),
    );
    // Sorted by position: channel is written after the record's other fields.
    expect(result.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([
      ['chain/propagation-forbidden', '/record/checked/1'],
      ['chain/propagation-forbidden', '/record/channel'],
    ]);
  });

  it('a url on a retired path is refused; the current route is not', () => {
    const retired = validate(propagationWith({ url: 'https://gateway.example/gateway/preflight' }));
    expect(retired.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([['chain/propagation-forbidden', '/record/url']]);
    expect(retired.diagnostics[0]!.message).toContain('/gateway/preflight');
    expect(validate(propagationWith({ url: 'https://example.org/agent-submit?x=1' })).valid).toBe(false);
    expect(validate(propagationWith({ url: 'https://gateway.example/record-chain/submit' })).valid).toBe(true);
    expect(validate(propagationWith({ url: 'https://example.org/agent-submitted-stories' })).valid).toBe(true);
  });

  it('echo text is not read against the propagation policy', () => {
    expect(findForbiddenPhrases('endorsed by the creator')).toHaveLength(1);
    // The echo record of the helpers is clean; a critique quoting a forbidden phrase is the echo's own business.
  });

  it('typography does not hide a claim: curly quotes, capitals, extra spaces', () => {
    expect(findForbiddenPhrases('ENDORSED   BY  THE   CREATOR').map((m) => m.item.item)).toEqual(['claiming endorsement by the creator or guardians']);
    expect(findForbiddenPhrases('Don\u2019t miss out').map((m) => m.item.item)).toEqual(['promotional language']);
  });
});
