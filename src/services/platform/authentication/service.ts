import { errors } from '../../../platform/core/errors.ts';
import type { Session } from '../../../platform/core/ports.ts';
import { action, defineService } from '../../../platform/core/registry.ts';
import { Type } from '../../../platform/core/schema.ts';
import { standardOperations } from '../../../platform/core/standard.ts';

// Login with an API key for the original platform's SDKs (DESIGN.md "Credentials"). The response
// keeps that platform's shape: `jsonToken` is a JSON string holding the OAuth-style token fields.

const JsonToken = Type.Object({
  jsonToken: Type.String({
    description: 'JSON with access_token, refresh_token, expires_in, token_type, scope',
  }),
});

const jsonToken = (session: Session) => ({
  jsonToken: JSON.stringify({
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_in: session.expiresIn,
    token_type: 'bearer',
    scope: session.scope,
    tenant: session.tenant,
  }),
});

export default defineService({
  domain: 'platform',
  name: 'authentication',
  version: '1.0.0',
  title: 'Authentication',
  description: 'Bearer tokens for API keys: login, refresh, logout',
  operations: {
    ...standardOperations({}),
    loginWithKey: action({
      description: 'Opens a session for an API key of the tenant and returns its bearer tokens',
      visibility: 'PUBLIC',
      anonymous: true,
      transaction: 'none',
      input: Type.Object({
        accessKey: Type.String({ minLength: 1, maxLength: 200 }),
        secret: Type.String({ minLength: 1, maxLength: 200 }),
        tenantName: Type.String({ minLength: 1, maxLength: 63 }),
      }),
      output: JsonToken,
      handler: async (ctx, input) => {
        // A key of one tenant never logs into another, whatever the body says.
        if (input.tenantName !== ctx.tenant.name) throw errors.unauthorized();
        return jsonToken(
          await ctx.platform.credentials.login(ctx.tenant.name, input.accessKey, input.secret),
        );
      },
    }),
    refreshToken: action({
      description: 'Exchanges a refresh token for new tokens; the old ones stop working',
      visibility: 'PUBLIC',
      anonymous: true,
      transaction: 'none',
      input: Type.Object({
        refreshToken: Type.String({ minLength: 1, maxLength: 200 }),
        tenantName: Type.Optional(Type.String({ minLength: 1, maxLength: 63 })),
      }),
      output: JsonToken,
      handler: async (ctx, input) => {
        if (input.tenantName !== undefined && input.tenantName !== ctx.tenant.name)
          throw errors.unauthorized();
        return jsonToken(await ctx.platform.credentials.refresh(ctx.tenant.name, input.refreshToken));
      },
    }),
    logout: action({
      description: "Ends the caller's bearer session; its access and refresh tokens stop working",
      visibility: 'PUBLIC',
      transaction: 'none',
      input: Type.Object({}),
      output: Type.Object({}),
      handler: async (ctx) => {
        if (!ctx.caller.sessionId) {
          throw errors.badRequest(
            'logout ends a bearer-token session; an API key is revoked by the administrator',
          );
        }
        await ctx.platform.credentials.logout(ctx.caller.sessionId);
        return {};
      },
    }),
  },
});
