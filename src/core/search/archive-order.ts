/**
 * The order the search index numbers records in: their order of arrival, so that an appended record is the last
 * document and an append leaves every other document's number (and file) as it was (format.ts). Conventionally named
 * records by their sequence number (a new record gets the highest so far + 1), then by id; records with other names
 * after them. Id order (the date first) would put a record archived under an earlier date in the middle.
 */
import { sequenceOf } from '../archive/paths.ts';
import { compareCodePoints } from '../util/compare.ts';

export function archiveOrder<T>(items: Iterable<T>, idOf: (item: T) => string): T[] {
  return [...items]
    .map((item) => ({ item, id: idOf(item), seq: sequenceOf(`${idOf(item)}.json`) ?? Infinity }))
    .sort((a, b) => (a.seq === b.seq ? compareCodePoints(a.id, b.id) : a.seq < b.seq ? -1 : 1))
    .map((e) => e.item);
}
