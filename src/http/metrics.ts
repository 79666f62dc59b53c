import type { RouterContext } from '@koa/router';
import type { Middleware } from 'koa';
import { Counter, Histogram, Registry } from 'prom-client';

/** Prometheus request metrics, labelled by route template (never the raw path, which is unbounded). */
export class HttpMetrics {
  readonly registry: Registry;
  private readonly duration: Histogram<'method' | 'route' | 'status'>;

  constructor(registry = new Registry()) {
    this.registry = registry;
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer HTTP requests, by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    this.duration = duration;
    // The histogram's counts, published under their own name when scraped: counting each request twice
    // cost it ~1 µs of CPU.
    new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
      async collect() {
        const { values } = await duration.get();
        this.reset();
        for (const { metricName, labels, value } of values)
          if (metricName === 'http_request_duration_seconds_count') this.inc(labels, value);
      },
    });
  }

  middleware(): Middleware {
    return async (ctx, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const labels = {
          method: ctx.method,
          route: routeOf(ctx as RouterContext),
          status: String(ctx.status),
        };
        this.duration.observe(labels, (performance.now() - started) / 1000);
      }
    };
  }
}

/** @koa/router records the template it matched; anything unmatched is one label, not one per path. */
function routeOf(ctx: RouterContext): string {
  return ctx._matchedRoute === undefined ? 'unmatched' : String(ctx._matchedRoute);
}
