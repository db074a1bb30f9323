// The part of autocannon 8's programmatic API the bench uses (the package ships no types).
declare module 'autocannon' {
  interface RequestOptions {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    /** Called before each request of this entry: answers the request to send. */
    setupRequest?: (request: RequestOptions) => RequestOptions;
  }

  interface Options extends RequestOptions {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    pipelining?: number;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    requests?: RequestOptions[];
  }

  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  interface Result {
    /** Completed requests per one-second sample. */
    requests: Histogram & { sent: number };
    /** Milliseconds. */
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    resets: number;
    '2xx': number;
    /** Seconds. */
    duration: number;
  }

  interface Instance extends PromiseLike<Result> {
    catch(onRejected: (err: unknown) => unknown): Promise<unknown>;
  }

  function autocannon(options: Options): Instance;
  export = autocannon;
}
