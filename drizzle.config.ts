import { defineConfig } from 'drizzle-kit';

// Every service owns its tables in `tables.ts` beside its declaration; drizzle-kit reads them all
// and writes one committed migration history (DESIGN.md "Persistence").
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/platform/**/tables.ts', './src/services/**/tables.ts', './src/services/**/tables/*.ts'],
  out: './drizzle',
});
