import { buildSourceMap, type SourceMap } from '../json/source-map.ts';
import { byPosition, type Diagnostic, type Finding } from './diagnostic.ts';

/**
 * Places findings in the file's text. The source map is built at most once per file, and only when some
 * finding does not already carry its position.
 */
export function locateFindings(findings: readonly Finding[], text: string | undefined): Diagnostic[] {
  let map: SourceMap | undefined;
  const out = findings.map((f): Diagnostic => {
    if (f.line !== undefined && f.column !== undefined) return { ...f, line: f.line, column: f.column };
    if (text === undefined) return { ...f, line: 1, column: 1 };
    map ??= buildSourceMap(text);
    const { line, column } = map.locate(f.pointer, f.at);
    return { ...f, line, column };
  });
  return out.sort(byPosition);
}
