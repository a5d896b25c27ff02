/**
 * A deliberately small, independent reference: a recursive-descent reader of (valid) JSON text that lists the
 * pointer of every member whose name already occurred in the same object, in text order.
 */
import { escapePointerToken } from '../../src/core/json/pointer.ts';

export function referenceDuplicates(text: string): string[] {
  let i = 0;
  const out: string[] = [];
  const ws = () => {
    while (i < text.length && ' \t\r\n'.includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++; // opening quote
    while (text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (pointer: string): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      const seen = new Set<string>();
      ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        const name = str();
        const here = `${pointer}/${escapePointerToken(name)}`;
        if (seen.has(name)) out.push(here);
        seen.add(name);
        ws();
        i++; // colon
        value(here);
        ws();
        if (text[i++] === '}') return;
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') { i++; return; }
      for (let n = 0; ; n++) {
        value(`${pointer}/${n}`);
        ws();
        if (text[i++] === ']') return;
      }
    } else if (c === '"') {
      str();
    } else {
      while (i < text.length && !',]} \t\r\n'.includes(text[i]!)) i++;
    }
  };
  value('');
  return out;
}
