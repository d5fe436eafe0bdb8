import { describe, expect, it } from 'vitest';
import { ServiceUnavailableError } from '../core/errors/index.js';
import { redisService } from './backing-services.js';
import { createServiceMonitor, type ServiceChange } from './service-monitor.js';

describe('createServiceMonitor', () => {
  it('reports a service going down and coming back once each, and answers /ready with the one away', async () => {
    const service = redisService('redis://127.0.0.1:6379');
    let reachable = true;
    let probes = 0;
    let clock = 0;
    const changes: ServiceChange[] = [];
    const monitor = createServiceMonitor({
      probes: [
        {
          service,
          probe: async () => {
            probes++;
            if (!reachable) throw new Error('connect ECONNREFUSED');
          },
        },
      ],
      onChange: (change) => changes.push(change),
      now: () => clock,
    });
    try {
      expect(await monitor.check()).toBeUndefined();
      reachable = false;
      // Within a second the last probe's answer is reused.
      expect(await monitor.check()).toBeUndefined();
      expect(probes).toBe(1);
      clock += 1000;
      const away = await monitor.check();
      expect(away).toMatchObject({
        code: 'service_unavailable',
        message: `${service.label} can't be reached`,
      });
      clock += 1000;
      await monitor.check();
      expect(monitor.down()).toEqual([service]);
      reachable = true;
      clock += 1000;
      expect(await monitor.check()).toBeUndefined();
      // A failed call marks it down at once, and the next check probes again.
      monitor.markDown(new ServiceUnavailableError({ service }));
      expect(await monitor.check()).toBeUndefined();
      expect(changes.map((change) => [change.state, change.message])).toEqual([
        ['down', `${service.label} can't be reached`],
        ['up', `${service.label} is reachable again`],
        ['down', `${service.label} can't be reached`],
        ['up', `${service.label} is reachable again`],
      ]);
    } finally {
      monitor.stop();
    }
  });
});
