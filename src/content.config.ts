/**
 * Content collections. `records` is the Echo archive, read and validated by the core through the records loader:
 * an invalid archive stops the build before any page is rendered.
 */
import { defineCollection } from 'astro:content';
import { recordEntrySchema } from './site/record-entry.ts';
import { recordsLoader } from './site/records-loader.ts';

export const collections = {
  records: defineCollection({
    loader: recordsLoader(),
    schema: recordEntrySchema,
  }),
};
