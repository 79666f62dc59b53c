import { describe, expect, it } from 'vitest';
import { destination, EARTH_RADIUS_METERS, toUnitVector } from 'geojson-sphere';
import { capRegion, queryCells, shapeCells, type Area } from '../../src/geo/cells.ts';
import { seededRandom } from '../support/seeded-random.ts';

const rand = seededRandom(20261127);

const pointCell = (at: [number, number]) => shapeCells([{ kind: 'point', point: toUnitVector(at) }])[0]!;
const area = (cells: string[]) => cells.reduce((sum, cell) => sum + 4 ** -cell.length, 0);

describe("a distance query's cells", () => {
  it('hold every point within the cap, wherever it lies (poles, antimeridian) and whatever its size', () => {
    const centers: [number, number][] = [
      [-84.39, 33.75],
      [179.999, -16.5],
      [-180, 51.8],
      [10, 89.99],
      [-60, -89.9],
      [0, 0],
    ];
    for (let i = 0; i < 200; i++) {
      const center =
        rand.next() < 0.5
          ? rand.pick(centers)
          : ([rand.between(-180, 180), rand.between(-90, 90)] as [number, number]);
      const radius =
        (rand.pick([10, 1_000, 20_000, 500_000, 3_000_000]) * rand.between(0.5, 1.5)) / EARTH_RADIUS_METERS;
      const cells = queryCells(capRegion(center, radius) as Area);
      for (let j = 0; j < 50; j++) {
        // Points on the rim among them: the cells must not be short anywhere.
        const reach = j < 10 ? radius * 0.999999 : radius * Math.sqrt(rand.next());
        const cell = pointCell(destination(center, rand.between(0, 2 * Math.PI), reach));
        expect(cells.some((query) => cell.startsWith(query))).toBe(true);
      }
    }
  });

  it('cover a circle more closely than the cells of its bounds', () => {
    for (const metres of [1_000, 5_000, 20_000]) {
      const region = capRegion([-84.39, 33.75], metres / EARTH_RADIUS_METERS) as Area;
      const bounded = area(queryCells({ bounds: region.bounds }));
      expect(area(queryCells(region))).toBeLessThan(0.8 * bounded);
    }
  });
});
