import { advisoryLock } from '../core/db/locks.ts';
import { inSavepoint } from '../core/db/savepoint.ts';
import { ApiError, errors } from '../core/errors.ts';
import { appendEvent } from '../core/outbox.ts';
import { action, defineService, event } from '../core/registry.ts';
import { Type } from '../core/schema.ts';

// A small service that emits, for the event machinery's tests.

/** Runs of the `steps` action's handler, by tag. */
export const runs = new Map<string, number>();

export const yard = defineService({
  domain: 'test',
  name: 'yard',
  version: '1.0.0',
  title: 'Yard (test)',
  operations: {
    vehicleEnteredYard: event({
      input: Type.Object({ placa: Type.String(), ws_users: Type.Optional(Type.String()) }),
      handler: async (_ctx, input) => {
        if (input.placa === 'REJECT') throw errors.unprocessable('placa rejected');
        return undefined;
      },
    }),
    // Steps in order: `emit` (ctx.emit), `lock:<name>` (an advisory lock held until commit),
    // `wait:<ms>`, `refused` (an emit in a savepoint then refused), `fail:<code>` (a 422 ApiError
    // whose catalogue code is <code>). Every run of the handler is counted in `runs`, by tag: the
    // platform runs a transaction the database undid again (run-again.test.ts).
    steps: action({
      input: Type.Object({ tag: Type.String(), steps: Type.Array(Type.String()) }),
      output: Type.Object({}),
      handler: async (ctx, input) => {
        runs.set(input.tag, (runs.get(input.tag) ?? 0) + 1);
        for (const step of input.steps) {
          const [what, arg = ''] = step.split(':');
          if (what === 'emit') await ctx.emit('test/yard/stepped', { tag: input.tag });
          else if (what === 'lock') await advisoryLock(ctx.tx, 'test/yard', ctx.tenant.name, arg);
          else if (what === 'wait') await new Promise((resolve) => setTimeout(resolve, Number(arg)));
          else if (what === 'fail')
            throw new ApiError('UNPROCESSABLE', `refused with code ${arg}`, { code: arg });
          else if (what === 'refused')
            // Work in a savepoint that is refused: its event goes with it.
            await inSavepoint(ctx, async () => {
              await ctx.emit('test/yard/undone', { tag: input.tag });
              throw errors.unprocessable('refused in a savepoint');
            });
        }
        return {};
      },
    }),
    emit: action({
      input: Type.Object({
        topic: Type.String(),
        payload: Type.Optional(Type.Unknown()),
        fail: Type.Optional(Type.Boolean()),
      }),
      output: Type.Object({ id: Type.Integer() }),
      handler: async (ctx, input) => {
        // Appended now, to answer its id (ctx.emit appends at commit).
        const id = await appendEvent(ctx.tx, ctx.tenant.name, input.topic, input.payload ?? {});
        ctx.afterCommit(() => ctx.platform.events.wake());
        if (input.fail) throw errors.unprocessable('failed after emitting');
        return { id };
      },
    }),
  },
});

/** Polls `check` until it returns true (background delivery), failing after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
