import { describe, expect, it } from 'vitest';
import { usableCores } from '../src/usable-cores.ts';

const files = (given: Record<string, string>) => (path: string) => given[path];

describe('usableCores', () => {
  it("counts the machine's cores without a quota", () => {
    expect(usableCores(files({}), 16)).toBe(16);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': 'max 100000\n' }), 16)).toBe(16);
    const unlimitedV1 = {
      '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n',
      '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
    };
    expect(usableCores(files(unlimitedV1), 16)).toBe(16);
  });

  it("counts a container's CPU quota, whole CPUs only, at least one", () => {
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '200000 100000\n' }), 16)).toBe(2);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '250000 100000\n' }), 16)).toBe(2);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '50000 100000\n' }), 16)).toBe(1);
    expect(usableCores(files({ '/sys/fs/cgroup/cpu.max': '800000 100000\n' }), 4)).toBe(4);
    const v1 = {
      '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000\n',
      '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
    };
    expect(usableCores(files(v1), 16)).toBe(3);
  });
});
