/** Whether a claim in words contains a phrase as whole words, case-insensitively ("unverified" does not contain "verified"). */
export function claimContains(claim: string, phrase: string): boolean {
  const c = claim.toLowerCase();
  const p = phrase.toLowerCase();
  for (let at = c.indexOf(p); at >= 0; at = c.indexOf(p, at + 1)) {
    const before = at === 0 ? '' : c[at - 1]!;
    const after = c[at + p.length] ?? '';
    if (!/[a-z0-9]/.test(before) && !/[a-z0-9]/.test(after)) return true;
  }
  return false;
}
