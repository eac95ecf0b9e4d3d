// Type declaration for the parts of the untyped CommonJS package `autocannon` (9.x) that the serving
// benchmarks use: the programmatic call with per-request setup and response hooks, and its result.
declare module 'autocannon' {
  namespace autocannon {
    /** Latency percentiles in milliseconds (whole milliseconds: autocannon's histogram resolution). */
    interface Latency {
      p50: number;
      p90: number;
      p99: number;
      mean: number;
      max: number;
    }
    interface Result {
      requests: { total: number; average: number };
      latency: Latency;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats?: Record<string, { count: number }>;
    }
    interface RequestSpec {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Returns the request to send (may change path, body, headers). */
      setupRequest?: (request: Record<string, unknown>) => Record<string, unknown>;
      onResponse?: (status: number, body: string) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      /** Stop after this many requests in all (instead of after `duration`). */
      amount?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      requests?: RequestSpec[];
    }
    /** The running benchmark: a promise of its result that can be stopped early. */
    interface Instance extends Promise<Result> {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export default autocannon;
}
