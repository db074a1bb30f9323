import type { JobDeclaration } from '../../../platform/core/declarations.ts';
import { SIGNATURE_HEADER, sign, TIMESTAMP_HEADER } from '../../../platform/events/signature.ts';
import { ENTREGAR_VAGAS } from './entities.ts';
import { entregarVagas } from './fila.ts';
import { CHAMAR_WEBHOOK } from './rotinas.ts';
import { atenderEntregas } from './rotinas-etapas.ts';
import { travarAreas } from './travas.ts';

// The durable jobs of the built-in commands (docs/patio.md "Conditions and commands").

export const automacaoJobs: Record<string, JobDeclaration> = {
  /** A spot an edit freed goes to the first vehicle waiting in its area, whose automation runs (fila.ts). */
  [ENTREGAR_VAGAS]: {
    transaction: 'tenant',
    handler: async (ctx, payload) => {
      const { areaId } = payload as { areaId: string };
      await travarAreas(ctx, [areaId]);
      const entregues = await entregarVagas(ctx, areaId);
      await atenderEntregas(ctx);
      return { entregues: entregues.length };
    },
  },
  /** The chamarWebhook command's call: retried with the queue's backoff until the receiver answers 2xx. */
  [CHAMAR_WEBHOOK]: {
    transaction: 'none',
    maxAttempts: 8,
    handler: async (ctx, payload) => {
      const { url, segredo, corpo } = payload as { url: string; segredo?: string; corpo: unknown };
      const body = JSON.stringify(corpo);
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'x-ponte-tenant': ctx.tenant.name,
      };
      if (segredo) {
        const timestamp = Math.floor(Date.now() / 1000);
        headers[TIMESTAMP_HEADER] = String(timestamp);
        headers[SIGNATURE_HEADER] = sign(segredo, timestamp, body);
      }
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(ctx.platform.config.webhookTimeoutMs),
      });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      return { status: response.status };
    },
  },
};
