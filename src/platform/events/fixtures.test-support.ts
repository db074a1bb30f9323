import { errors } from '../core/errors.ts';
import { action, defineService, event } from '../core/registry.ts';
import { Type } from '../core/schema.ts';

// A small service that emits, for the event machinery's tests.

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
    emit: action({
      input: Type.Object({
        topic: Type.String(),
        payload: Type.Optional(Type.Unknown()),
        fail: Type.Optional(Type.Boolean()),
      }),
      output: Type.Object({ id: Type.Integer() }),
      handler: async (ctx, input) => {
        const id = await ctx.emit(input.topic, input.payload ?? {});
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
