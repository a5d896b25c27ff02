/** The gateway's HTTP shapes as the builder reads them (core/record-chain/protocol.ts). */
import { describe, expect, it } from 'vitest';
import { currentRoute, isErrorEnvelope, PREFLIGHT_PATH, RETIRED_PATHS, SUBMIT_PATH, toWireDiagnostics, validateSubmissionText } from '../../src/core/record-chain/index.ts';

describe('protocol', () => {
  it('the routes of spec 4, and the retired paths of spec 2.3', () => {
    expect([PREFLIGHT_PATH, SUBMIT_PATH]).toEqual(['/record-chain/preflight', '/record-chain/submit']);
    expect(RETIRED_PATHS).toContain('/agent-submit');
    expect(RETIRED_PATHS).toContain('/gateway/*');
    expect(currentRoute({ baseUrl: 'https://a.example', gatewayUrl: 'https://g.example' })).toEqual({
      preflight: 'POST https://g.example/record-chain/preflight',
      submit: 'POST https://g.example/record-chain/submit',
      builder: 'https://a.example/downloads/record-chain-builder.mjs',
    });
  });

  it('wire diagnostics are the validate CLI’s JSON diagnostics', () => {
    const wire = toWireDiagnostics(validateSubmissionText('{"a": 1, "a": 2}').diagnostics);
    expect(wire.find((d) => d.rule === 'json/duplicate-key')).toEqual({ severity: 'error', rule: 'json/duplicate-key', message: expect.any(String), pointer: '/a', line: 1, column: 10, hint: expect.any(String) });
  });

  it('recognises the error envelope', () => {
    expect(isErrorEnvelope({ error: { status: 429, code: 'rate_limited', message: 'slow down' } })).toBe(true);
    expect(isErrorEnvelope({ error: 'x' })).toBe(false);
    expect(isErrorEnvelope(null)).toBe(false);
  });
});
