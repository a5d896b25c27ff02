/**
 * What the `records` collection stores per record. The record itself is validated by the core (the Echo v3
 * schema and every rule); this schema only describes the site's own metadata around it, so it is never duplicated.
 */
import { z } from 'astro/zod';

export const recordEntrySchema = z.object({
  /** Path of the record file from the archive root, forward slashes. */
  path: z.string(),
  /** Archive date (YYYY-MM-DD) from a conventional record name, else null (DECISIONS 1). */
  archiveDate: z.string().nullable(),
  /** Lowercase hex SHA-256 of the record file's exact bytes. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The parsed record, exactly as the core read it. */
  record: z.record(z.string(), z.unknown()),
});

export type RecordEntryData = z.infer<typeof recordEntrySchema>;
