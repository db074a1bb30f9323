import { eq } from 'drizzle-orm';
import { defineErrors } from '../../../platform/core/errors.ts';
import { defineService, query } from '../../../platform/core/registry.ts';
import { DateTime, Enum, Int64, Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';
import { jobs } from '../../../platform/jobs/tables.ts';

// platform/jobs (the project's own service, docs/jobs.md): the state of a durable job of the
// caller's tenant. Signals answer 202 with the job's id in the `x-job-id` header.

const E = defineErrors({
  jobNotFound: { reason: 'OBJECT_NOT_FOUND', message: 'Job {id} not found' },
});

export default defineService({
  domain: 'platform',
  name: 'jobs',
  version: '1.0.0',
  title: 'Jobs',
  description: 'State of the durable jobs that signals, imports and exports run',
  operations: {
    ...standardOperations({}),
    getJob: query({
      description: 'State, attempts, last error and result of a job of this tenant',
      visibility: 'PUBLIC',
      get: true,
      input: Type.Object({ jobId: Type.String({ format: 'uuid' }) }),
      output: Type.Object({
        jobId: Type.String(),
        kind: Type.String({ description: 'domain/service/job' }),
        state: Enum(['queued', 'running', 'done', 'failed']),
        attempts: Int64(),
        maxAttempts: Int64(),
        lastError: Type.Optional(Type.String()),
        result: Type.Optional(Type.Unknown()),
        createdAt: DateTime(),
        runAt: DateTime({ description: 'when it runs next (queued) or ran' }),
        finishedAt: Type.Optional(DateTime()),
      }),
      handler: async (ctx, input) => {
        const [job] = await ctx.store.select(jobs, eq(jobs.id, input.jobId));
        if (!job) throw E.jobNotFound({ id: input.jobId });
        return {
          jobId: job.id,
          kind: job.kind,
          state: job.state as 'queued' | 'running' | 'done' | 'failed',
          attempts: job.attempts,
          maxAttempts: job.maxAttempts,
          ...(job.lastError ? { lastError: job.lastError } : {}),
          ...(job.result !== null ? { result: job.result } : {}),
          createdAt: job.createdAt.toISOString(),
          runAt: job.runAt.toISOString(),
          ...(job.finishedAt ? { finishedAt: job.finishedAt.toISOString() } : {}),
        };
      },
    }),
  },
});
