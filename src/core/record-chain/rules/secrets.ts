/**
 * Secrets and private keys pasted into a submission are refused: everything submitted is published. The patterns
 * are the well-known shapes of private keys and API tokens; the finding names the kind and never repeats the secret.
 */
import type { Finding } from '../../diagnostics/diagnostic.ts';
import { violation } from '../../rules/rule.ts';
import { forEachString } from '../walk.ts';
import type { ChainRule } from './rule.ts';

export interface SecretShape {
  kind: string;
  pattern: RegExp;
  /** A further test of the matched text (kept out of the pattern: look-aheads there would scan quadratically). */
  accept?: (match: string) => boolean;
}

/** Random tokens mix letters and digits; words and repeated prefixes do not. */
const mixed = (token: string): boolean => /\d/.test(token) && /[A-Za-z]/.test(token);

/** Each shape is specific enough that prose does not match it by chance. */
export const SECRET_SHAPES: readonly SecretShape[] = [
  // PEM / OpenSSH / PGP private keys, with or without the algorithm word (RSA, EC, DSA, OPENSSH, ENCRYPTED …).
  { kind: 'a private key (PEM block)', pattern: /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/ },
  { kind: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'a GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{60,})\b/ },
  { kind: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/ },
  { kind: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/ },
  { kind: 'an OpenAI API key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{32,})/g, accept: (m) => mixed(m) },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/ },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/ },
  { kind: 'a Stripe secret key', pattern: /\b[rs]k_(?:live|test)_[0-9A-Za-z]{20,}\b/ },
  { kind: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/ },
  { kind: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}\b/ },
  { kind: 'a JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/ },
  {
    kind: 'a password or secret assignment',
    pattern:
      /\b(?:api[_-]?key|secret[_-]?key|client[_-]?secret|access[_-]?token|auth[_-]?token|private[_-]?key|password|passwd)\b["']?\s*[:=]\s*["']?([^\s"']{12,})/gi,
    accept: (m) => mixed(m),
  },
];

/** The kind of the first secret-shaped thing in `text`, or undefined. */
export function findSecret(text: string): string | undefined {
  for (const shape of SECRET_SHAPES) {
    if (!shape.accept) {
      if (shape.pattern.test(text)) return shape.kind;
      continue;
    }
    const re = shape.pattern.global ? shape.pattern : new RegExp(shape.pattern.source, shape.pattern.flags + 'g');
    for (const m of text.matchAll(re)) if (shape.accept(m[1] ?? m[0])) return shape.kind;
  }
  return undefined;
}

export const secrets: ChainRule = {
  id: 'chain/secret',
  summary: 'No private key or credential in any text of a submission: everything submitted is published.',
  check({ submission }) {
    const out: Finding[] = [];
    for (const field of ['record', 'client'] as const) {
      forEachString(submission[field], `/${field}`, (text, pointer, isKey) => {
        const kind = findSecret(text);
        if (!kind) return;
        // A secret in a member name would be repeated by the pointer: point at the object holding it instead.
        const at = isKey ? pointer.slice(0, pointer.lastIndexOf('/')) : pointer;
        out.push(
          violation(
            this.id,
            at,
            `${isKey ? `a field name in ${at}` : at} contains what looks like ${kind}; everything submitted is published`,
            'Remove it from the record. If it is a real secret, treat it as leaked: revoke or rotate it. The builder signs with the key in its key directory; keys never go into a record.',
          ),
        );
      });
    }
    return out;
  },
};
