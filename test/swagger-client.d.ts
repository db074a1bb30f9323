// The part of swagger-client (which ships no types) that the tests use.
declare module 'swagger-client' {
  export interface SwaggerResponse {
    status: number;
    url: string;
    // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, checked against the document's schema
    body: any;
    headers: Record<string, string>;
  }
  interface SwaggerClientInstance {
    execute(request: { operationId: string; parameters?: Record<string, unknown> }): Promise<SwaggerResponse>;
  }
  export default function SwaggerClient(options: {
    spec?: object;
    url?: string;
    authorizations?: Record<string, string>;
  }): Promise<SwaggerClientInstance>;
}
